//===- tile-translate.cpp - tile IR to LLVM IR, PTX and cubins ------------===//
//
//   tile-translate --tile-to-ptx kernel.mlir               PTX on stdout
//   tile-translate --tile-to-cubin kernel.mlir -o k.cubin   also writes k.json
//       (and k.without-limit.cubin, for grids that fit at once, where made)
//
// Next to every file it writes, a JSON sidecar holds each kernel's launch
// facts (threads, shared memory, parameters).
//
//===----------------------------------------------------------------------===//

#include "tile/Target/CodegenFlags.h"
#include "tile/Target/Compile.h"

#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/WithColor.h"

using namespace llvm;

namespace {
cl::OptionCategory toolOptions("tile-translate options");
enum class Action { LLVMIR, PTX, Cubin };

cl::opt<std::string> inputFilename(cl::cat(toolOptions), cl::Positional,
                                   cl::desc("<input .mlir>"), cl::init("-"));
cl::opt<std::string> outputFilename(cl::cat(toolOptions), "o",
                                    cl::desc("Output file"),
                                    cl::value_desc("filename"), cl::init("-"));
cl::opt<Action>
    action(cl::cat(toolOptions), cl::desc("What to produce:"),
           cl::values(clEnumValN(Action::LLVMIR, "tile-to-llvmir",
                                 "LLVM IR of the kernels (before libdevice)"),
                      clEnumValN(Action::PTX, "tile-to-ptx", "PTX assembly"),
                      clEnumValN(Action::Cubin, "tile-to-cubin",
                                 "a cubin assembled by ptxas")),
           cl::Required);
cl::opt<std::string> chip(cl::cat(toolOptions), "chip",
                          cl::desc("Target GPU (default sm_90)"),
                          cl::init("sm_90"));
cl::opt<unsigned> numWarps(cl::cat(toolOptions), "num-warps",
                           cl::desc("Warps per program instance (default 4)"),
                           cl::init(4));
cl::opt<unsigned> numStages(
    cl::cat(toolOptions), "num-stages",
    cl::desc("Loop iterations whose dot operands load at once (default 3; "
             "1: no software pipelining)"),
    cl::init(3));
cl::opt<std::string> cudaPath(cl::cat(toolOptions), "cuda-path",
                              cl::desc("CUDA toolkit (ptxas, libdevice); "
                                       "default $CUDA_HOME or the build's"),
                              cl::init(""));
mlir::tile::CodegenFlags codegenFlags("", toolOptions);
cl::opt<std::string> metadataFilename(
    cl::cat(toolOptions), "metadata",
    cl::desc("Where to write the launch facts as JSON (default: "
             "next to -o, with the extension .json)"),
    cl::init(""));
} // namespace

int main(int argc, char **argv) {
  InitLLVM init(argc, argv);
  // Only our options in --help, not every LLVM backend flag.
  cl::HideUnrelatedOptions(toolOptions);
  cl::ParseCommandLineOptions(argc, argv, "tile translator\n");

  std::string errorMessage;
  auto input = mlir::openInputFile(inputFilename, &errorMessage);
  if (!input) {
    WithColor::error() << errorMessage << "\n";
    return 1;
  }
  mlir::tile::CompileOptions options;
  options.chip = chip;
  options.numWarps = numWarps;
  options.numStages = numStages;
  options.cudaToolkit = cudaPath;
  options.emitCubin = action == Action::Cubin;
  codegenFlags.apply(options);
  mlir::tile::CompileResult result = mlir::tile::compileTileSource(
      input->getBuffer(),
      inputFilename == "-" ? std::string("<stdin>")
                           : std::string(inputFilename),
      options);
  if (!result.succeeded) {
    errs() << result.diagnostics;
    return 1;
  }

  auto output = mlir::openOutputFile(outputFilename, &errorMessage);
  if (!output) {
    WithColor::error() << errorMessage << "\n";
    return 1;
  }
  switch (action) {
  case Action::LLVMIR:
    output->os() << result.llvmIR;
    break;
  case Action::PTX:
    output->os() << result.ptx;
    break;
  case Action::Cubin:
    output->os() << result.cubin;
    break;
  }
  output->keep();
  if (action == Action::Cubin && !result.cubinWithoutLimit.empty() &&
      outputFilename != "-") {
    auto own = mlir::openOutputFile(
        mlir::tile::getCubinWithoutLimitPath(outputFilename), &errorMessage);
    if (!own) {
      WithColor::error() << errorMessage << "\n";
      return 1;
    }
    own->os() << result.cubinWithoutLimit;
    own->keep();
  }

  std::string metadataPath = metadataFilename;
  if (metadataPath.empty() && outputFilename != "-") {
    SmallString<256> path(outputFilename);
    sys::path::replace_extension(path, "json");
    metadataPath = std::string(path);
  }
  if (!metadataPath.empty()) {
    auto metadata = mlir::openOutputFile(metadataPath, &errorMessage);
    if (!metadata) {
      WithColor::error() << errorMessage << "\n";
      return 1;
    }
    metadata->os() << result.metadataJson() << "\n";
    metadata->keep();
  }
  return 0;
}
