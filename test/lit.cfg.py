# -*- Python -*-
import os
import shutil

import lit.formats
from lit.llvm import llvm_config

config.name = "TILE"
# The tests use shell loops over the examples: run them with the system shell.
config.test_format = lit.formats.ShTest(execute_external=True)
config.suffixes = [".mlir", ".c", ".tc"]
config.excludes = ["Inputs", "CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.tile_obj_root, "test")

config.substitutions.append(("%PATH%", config.environment["PATH"]))
config.substitutions.append(("%tile_src_root", config.tile_src_root))
config.substitutions.append(("%cuda", config.cuda_toolkit))
# The stock mlir-opt of the LLVM we build against, and our plugin for it
# (test/embedding/plugin.mlir).
config.substitutions.append(
    ("%mlir_opt", os.path.join(config.llvm_tools_dir, "mlir-opt")))
config.substitutions.append(
    ("%tile_plugin", os.path.join(config.tile_lib_dir, "TilePlugin.so")))

llvm_config.with_system_environment(["HOME", "INCLUDE", "LIB", "TMP", "TEMP", "CUDA_HOME"])
llvm_config.use_default_substitutions()
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
llvm_config.with_environment("PATH", config.tile_tools_dir, append_path=True)

# ptxas assembles every PTX the tests produce, where the CUDA toolkit exists.
ptxas = os.path.join(config.cuda_toolkit, "bin", "ptxas")
if os.path.exists(ptxas):
    config.available_features.add("ptxas")
    config.substitutions.append(("%ptxas", ptxas))

# A sanitizer build instruments our plugin, which stock (uninstrumented)
# mlir-opt cannot load.
if config.tile_sanitizers.upper() in ("ON", "1", "TRUE", "YES"):
    config.available_features.add("asan")
