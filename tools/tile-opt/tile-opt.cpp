//===- tile-opt.cpp - tile optimizer driver -------------------------------===//
//
// mlir-opt with the tile dialect, passes and pipeline. MLIR parses and walks
// nested IR recursively, so as the compile library does, tile-opt rejects
// input nested deeper than kMaxNestingDepth before parsing it and runs on a
// large stack (docs/reliability.md).
//
//===----------------------------------------------------------------------===//

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "tile/InitTile.h"
#include "tile/Target/Compile.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"

using namespace mlir;

namespace mlir::tile::test {
void registerTestAxisInfoPass();
} // namespace mlir::tile::test

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  DialectRegistry registry;
  // The tile dialect and everything its pipeline lowers to and serializes
  // with, as the compile library registers them.
  tile::registerCompileDependencies(registry);
  registerAllPasses();
  tile::registerTilePassesAndPipelines();
  tile::test::registerTestAxisInfoPass();

  // What MlirOptMain(argc, argv, ...) does, with the nesting check between
  // reading the input and parsing it.
  auto [inputFilename, outputFilename] = registerAndParseCLIOptions(
      argc, argv, "tile optimizer driver\n", registry);
  MlirOptMainConfig config = MlirOptMainConfig::createFromCLOptions();
  if (config.shouldShowDialects() || config.shouldListPasses())
    return asMainReturnCode(
        MlirOptMain(argc, argv, inputFilename, outputFilename, registry));
  if (inputFilename == "-" &&
      llvm::sys::Process::FileDescriptorIsDisplayed(fileno(stdin)))
    llvm::errs() << "(processing input from stdin now, hit ctrl-c/ctrl-d to "
                    "interrupt)\n";
  std::string errorMessage;
  std::unique_ptr<llvm::MemoryBuffer> input =
      openInputFile(inputFilename, &errorMessage);
  if (!input) {
    llvm::errs() << errorMessage << "\n";
    return 1;
  }
  {
    llvm::SourceMgr sourceMgr;
    sourceMgr.AddNewSourceBuffer(
        llvm::MemoryBuffer::getMemBuffer(input->getMemBufferRef(),
                                         /*RequiresNullTerminator=*/false),
        llvm::SMLoc());
    MLIRContext context;
    SourceMgrDiagnosticHandler handler(sourceMgr, &context);
    if (failed(tile::checkNestingDepth(sourceMgr, &context)))
      return 1;
  }
  std::unique_ptr<llvm::ToolOutputFile> output =
      openOutputFile(outputFilename, &errorMessage);
  if (!output) {
    llvm::errs() << errorMessage << "\n";
    return 1;
  }
  LogicalResult result = failure();
  tile::runWithLargeStack([&] {
    result = MlirOptMain(output->os(), std::move(input), registry, config);
  });
  if (failed(result))
    return 1;
  output->keep();
  return 0;
}
