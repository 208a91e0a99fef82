//===- Compile.cpp - the whole compile, tile IR text to PTX/cubin ---------===//

#include "tile/Target/Compile.h"
#include "tile/Conversion/TileToGPU/Passes.h"
#include "tile/Dialect/Tile/IR/TileOps.h"
#include "tile/Dialect/Tile/Transforms/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/CompilationInterfaces.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Target/LLVM/NVVM/Target.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/SourceMgr.h"

#ifndef TILE_DEFAULT_CUDA_TOOLKIT
#define TILE_DEFAULT_CUDA_TOOLKIT "/usr/local/cuda"
#endif

using namespace mlir;
using namespace mlir::tile;

void mlir::tile::registerCompileDependencies(DialectRegistry &registry) {
  registerAllDialects(registry);
  registerAllExtensions(registry);
  registerAllToLLVMIRTranslations(registry);
  NVVM::registerNVVMTargetInterfaceExternalModels(registry);
  registry.insert<TileDialect>();
}

/// Tile IR to gpu.func kernels: clean-up, layouts, conversion.
static void buildTileToGPUPipeline(OpPassManager &pm, unsigned numWarps) {
  pm.addPass(createInlinerPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  TileAssignLayoutsOptions layoutOptions;
  layoutOptions.numWarps = numWarps;
  pm.addPass(createTileAssignLayouts(layoutOptions));
  pm.addPass(createConvertTileToGPU());
}

/// gpu.func kernels to the LLVM and NVVM dialects, with a target attached.
static void buildGPUToNVVMPipeline(OpPassManager &pm, StringRef chip) {
  OpPassManager &gpuModule = pm.nest<gpu::GPUModuleOp>();
  gpuModule.addPass(createCanonicalizerPass());
  gpuModule.addPass(createCSEPass());
  gpuModule.addPass(createSCFToControlFlowPass());
  gpuModule.addPass(createConvertGpuOpsToNVVMOps());
  gpuModule.addPass(createConvertNVVMToLLVMPass());
  gpuModule.addPass(createCanonicalizerPass());
  gpuModule.addPass(createCSEPass());
  gpuModule.addPass(createReconcileUnrealizedCastsPass());
  GpuNVVMAttachTargetOptions targetOptions;
  targetOptions.chip = chip.str();
  targetOptions.optLevel = 3;
  pm.addPass(createGpuNVVMAttachTarget(targetOptions));
}

void mlir::tile::buildTileToNVVMPipeline(OpPassManager &pm, StringRef chip,
                                         unsigned numWarps) {
  buildTileToGPUPipeline(pm, numWarps);
  buildGPUToNVVMPipeline(pm, chip);
}

namespace {
struct TileToNVVMPipelineOptions
    : public PassPipelineOptions<TileToNVVMPipelineOptions> {
  Option<std::string> chip{*this, "chip", llvm::cl::desc("Target GPU"),
                           llvm::cl::init("sm_90")};
  Option<unsigned> numWarps{*this, "num-warps",
                            llvm::cl::desc("Warps per program instance"),
                            llvm::cl::init(4)};
};
} // namespace

void mlir::tile::registerTilePipelines() {
  PassPipelineRegistration<TileToNVVMPipelineOptions>(
      "tile-to-nvvm",
      "Lower tile kernels to the NVVM and LLVM dialects, ready for "
      "serialization to PTX",
      [](OpPassManager &pm, const TileToNVVMPipelineOptions &options) {
        buildTileToNVVMPipeline(pm, options.chip, options.numWarps);
      });
}

std::string mlir::tile::getCudaToolkitPath(const CompileOptions &options) {
  if (!options.cudaToolkit.empty())
    return options.cudaToolkit;
  if (const char *home = std::getenv("CUDA_HOME"))
    if (*home)
      return home;
  return TILE_DEFAULT_CUDA_TOOLKIT;
}

//===----------------------------------------------------------------------===//
// Launch facts
//===----------------------------------------------------------------------===//

static std::string typeName(Type type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  type.print(os);
  return text;
}

/// Parameter names come from the argument locations a frontend gives
/// (`loc("x_ptr")` or a NameLoc around a file location).
static std::string argumentName(BlockArgument arg) {
  Location loc = arg.getLoc();
  if (auto named = dyn_cast<NameLoc>(loc))
    return named.getName().str();
  return "arg" + std::to_string(arg.getArgNumber());
}

static std::vector<KernelInfo> collectKernelSignatures(ModuleOp module) {
  std::vector<KernelInfo> kernels;
  for (auto func : module.getOps<func::FuncOp>()) {
    if (func.isPrivate() || func.isExternal())
      continue;
    KernelInfo info;
    info.name = func.getName().str();
    for (BlockArgument arg : func.getArguments()) {
      KernelInfo::Param param;
      param.name = argumentName(arg);
      if (auto ptr = dyn_cast<PtrType>(arg.getType())) {
        param.type = "ptr";
        param.pointee = typeName(ptr.getPointeeType());
      } else {
        param.type = typeName(arg.getType());
      }
      info.params.push_back(param);
    }
    kernels.push_back(info);
  }
  return kernels;
}

static void collectLaunchFacts(ModuleOp module,
                               std::vector<KernelInfo> &kernels) {
  module.walk([&](gpu::GPUFuncOp func) {
    for (KernelInfo &info : kernels) {
      if (info.name != func.getName())
        continue;
      auto get = [&](StringRef name, unsigned fallback) -> unsigned {
        if (auto attr = func->getAttrOfType<IntegerAttr>(name))
          return attr.getInt();
        return fallback;
      };
      info.numWarps = get("tile.num_warps", info.numWarps);
      info.threads = get("tile.threads", info.threads);
      info.sharedBytes = get("tile.shared_bytes", 0);
    }
  });
}

std::string CompileResult::metadataJson() const {
  llvm::json::Array kernelArray;
  for (const KernelInfo &kernel : kernels) {
    llvm::json::Array params;
    for (const KernelInfo::Param &param : kernel.params) {
      llvm::json::Object object{{"name", param.name}, {"type", param.type}};
      if (!param.pointee.empty())
        object["pointee"] = param.pointee;
      params.push_back(std::move(object));
    }
    kernelArray.push_back(
        llvm::json::Object{{"name", kernel.name},
                           {"num_warps", kernel.numWarps},
                           {"threads", kernel.threads},
                           {"shared_bytes", kernel.sharedBytes},
                           {"params", std::move(params)}});
  }
  llvm::json::Object root{{"chip", chip}, {"kernels", std::move(kernelArray)}};
  std::string text;
  llvm::raw_string_ostream os(text);
  os << llvm::formatv("{0:2}", llvm::json::Value(std::move(root)));
  return text;
}

//===----------------------------------------------------------------------===//
// ptxas
//===----------------------------------------------------------------------===//

/// Assembles `ptx` for `chip`; on failure returns false with ptxas's
/// message in `error`.
static bool runPtxas(StringRef toolkit, StringRef chip, StringRef ptx,
                     std::string &cubin, std::string &error) {
  SmallString<256> ptxas(toolkit);
  llvm::sys::path::append(ptxas, "bin", "ptxas");
  if (!llvm::sys::fs::can_execute(ptxas)) {
    auto found = llvm::sys::findProgramByName("ptxas");
    if (!found) {
      error = "ptxas not found in " + ptxas.str().str() +
              " nor on PATH; set CUDA_HOME to the CUDA toolkit";
      return false;
    }
    ptxas = *found;
  }
  SmallString<128> ptxPath, cubinPath, logPath;
  int fd;
  if (llvm::sys::fs::createTemporaryFile("tile", "ptx", fd, ptxPath)) {
    error = "cannot create a temporary file for ptxas";
    return false;
  }
  {
    llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
    os << ptx;
  }
  llvm::sys::fs::createTemporaryFile("tile", "cubin", cubinPath);
  llvm::sys::fs::createTemporaryFile("tile", "log", logPath);
  std::string arch = "-arch=" + chip.str();
  SmallVector<StringRef> args{ptxas, arch, "-o", cubinPath, ptxPath};
  std::optional<StringRef> redirects[] = {std::nullopt, logPath.str(),
                                          logPath.str()};
  int status = llvm::sys::ExecuteAndWait(ptxas, args, std::nullopt, redirects);
  bool ok = status == 0;
  if (ok) {
    auto buffer = llvm::MemoryBuffer::getFile(cubinPath, /*IsText=*/false);
    if (buffer)
      cubin = (*buffer)->getBuffer().str();
    else
      ok = false, error = "cannot read the cubin ptxas wrote";
  } else {
    auto log = llvm::MemoryBuffer::getFile(logPath);
    error = "ptxas failed";
    if (log)
      error += ":\n" + (*log)->getBuffer().str();
  }
  llvm::sys::fs::remove(ptxPath);
  llvm::sys::fs::remove(cubinPath);
  llvm::sys::fs::remove(logPath);
  return ok;
}

//===----------------------------------------------------------------------===//
// The compile
//===----------------------------------------------------------------------===//

CompileResult mlir::tile::compileTileSource(StringRef source,
                                            StringRef bufferName,
                                            const CompileOptions &options) {
  CompileResult result;
  result.chip = options.chip;
  llvm::raw_string_ostream diagnostics(result.diagnostics);
  if (options.numWarps == 0 || options.numWarps > 32) {
    diagnostics << "error: num-warps must be from 1 to 32, not "
                << options.numWarps << "\n";
    return result;
  }

  DialectRegistry registry;
  registerCompileDependencies(registry);
  MLIRContext context(registry, MLIRContext::Threading::DISABLED);
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(source, bufferName), SMLoc());
  SourceMgrDiagnosticHandler handler(sourceMgr, &context, diagnostics);

  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, &context);
  if (!module)
    return result;
  result.kernels = collectKernelSignatures(*module);
  if (result.kernels.empty()) {
    emitError(module->getLoc()) << "no kernel: a kernel is a public func.func";
    return result;
  }

  PassManager toGPU(&context);
  buildTileToGPUPipeline(toGPU, options.numWarps);
  if (failed(toGPU.run(*module)))
    return result;
  collectLaunchFacts(*module, result.kernels);

  PassManager toNVVM(&context);
  buildGPUToNVVMPipeline(toNVVM, options.chip);
  if (failed(toNVVM.run(*module)))
    return result;

  gpu::GPUModuleOp gpuModule;
  module->walk([&](gpu::GPUModuleOp op) { gpuModule = op; });
  if (!gpuModule) {
    emitError(module->getLoc()) << "lowering produced no GPU module";
    return result;
  }

  // LLVM IR, before libdevice is linked.
  {
    llvm::LLVMContext llvmContext;
    std::unique_ptr<llvm::Module> llvmModule =
        translateModuleToLLVMIR(gpuModule, llvmContext, "tile_kernels");
    if (!llvmModule)
      return result;
    llvm::raw_string_ostream os(result.llvmIR);
    llvmModule->print(os, nullptr);
  }

  auto target = cast<gpu::TargetAttrInterface>(gpuModule.getTargetsAttr()[0]);
  std::string toolkit = getCudaToolkitPath(options);
  gpu::TargetOptions targetOptions(toolkit, {}, "", "",
                                   gpu::CompilationTarget::Assembly);
  std::optional<SmallVector<char, 0>> ptx =
      target.serializeToObject(gpuModule, targetOptions);
  if (!ptx) {
    emitError(gpuModule.getLoc()) << "serialization to PTX failed";
    return result;
  }
  result.ptx.assign(ptx->begin(), ptx->end());
  while (!result.ptx.empty() && result.ptx.back() == '\0')
    result.ptx.pop_back();

  if (options.emitCubin) {
    std::string error;
    if (!runPtxas(toolkit, options.chip, result.ptx, result.cubin, error)) {
      diagnostics << "error: " << error << "\n";
      return result;
    }
  }
  result.succeeded = true;
  return result;
}
