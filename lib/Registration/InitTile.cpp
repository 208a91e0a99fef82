//===- InitTile.cpp - register the tile dialect, passes, translations -----===//

#include "tile/InitTile.h"

#include "tile/Conversion/TileToGPU/Passes.h"
#include "tile/Dialect/Tile/IR/TileDialect.h"
#include "tile/Dialect/Tile/Transforms/Passes.h"
#include "tile/Target/CodegenFlags.h"
#include "tile/Target/Compile.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/OperationSupport.h"
#include "mlir/Tools/mlir-translate/Translation.h"
#include "llvm/Support/CommandLine.h"

using namespace mlir;

void mlir::tile::registerTileDialect(DialectRegistry &registry) {
  registry.insert<TileDialect>();
}

void mlir::tile::registerTilePassesAndPipelines() {
  // The pass registry rejects a second registration of a pipeline name, so
  // make repeated calls (a plugin loaded into a tool that already linked us,
  // two C API clients in one process) harmless.
  static const bool registered = [] {
    registerTilePasses();
    registerTileConversionPasses();
    registerTilePipelines();
    return true;
  }();
  (void)registered;
}

namespace {
enum class TileOutput { LLVMIR, PTX, Cubin };

/// The options the translations read. Prefixed with "tile-" because they
/// live in the process-wide option registry of whatever tool links us.
struct TileTranslationOptions {
  llvm::cl::opt<std::string> chip{
      "tile-chip", llvm::cl::desc("tile-to-*: target GPU (default sm_90)"),
      llvm::cl::init("sm_90")};
  llvm::cl::opt<unsigned> numWarps{
      "tile-num-warps",
      llvm::cl::desc("tile-to-*: warps per program instance (default 4)"),
      llvm::cl::init(4)};
  llvm::cl::opt<std::string> cudaPath{
      "tile-cuda-path",
      llvm::cl::desc("tile-to-*: CUDA toolkit (ptxas, libdevice); default "
                     "$CUDA_HOME or the build's"),
      llvm::cl::init("")};
  /// --tile-line-info, --tile-fp-fusion, --tile-reflect-ftz.
  tile::CodegenFlags codegen{"tile-", llvm::cl::getGeneralCategory()};
};
} // namespace

/// Runs the one compile library on `op`. It works on text, so the module is
/// printed with its locations and compiled again: diagnostics still point
/// into the file the tool read, and the translation and tile-translate
/// cannot drift apart.
static LogicalResult translateTileModule(Operation *op, raw_ostream &os,
                                         TileOutput output,
                                         const TileTranslationOptions &cl) {
  std::string source;
  {
    llvm::raw_string_ostream sourceStream(source);
    op->print(sourceStream, OpPrintingFlags().enableDebugInfo());
  }
  tile::CompileOptions options;
  options.chip = cl.chip;
  options.numWarps = cl.numWarps;
  options.cudaToolkit = cl.cudaPath;
  options.emitCubin = output == TileOutput::Cubin;
  cl.codegen.apply(options);
  tile::CompileResult result =
      tile::compileTileSource(source, "<tile-translation>", options);
  if (!result.succeeded) {
    // The compile's diagnostics are already located text; carry them
    // through the tool's diagnostic engine rather than printing them.
    StringRef diagnostics = StringRef(result.diagnostics).rtrim();
    return op->emitError() << "tile compile failed"
                           << (diagnostics.empty() ? "" : ":\n") << diagnostics;
  }
  switch (output) {
  case TileOutput::LLVMIR:
    os << result.llvmIR;
    break;
  case TileOutput::PTX:
    os << result.ptx;
    break;
  case TileOutput::Cubin:
    os << result.cubin;
    break;
  }
  return success();
}

void mlir::tile::registerTileTranslations() {
  static const bool registered = [] {
    // Constructed on first use so that tools which never ask for the
    // translations do not carry their options.
    static TileTranslationOptions options;
    auto registerOne = [](StringRef name, StringRef description,
                          TileOutput output) {
      TranslateFromMLIRRegistration(
          name, description,
          [output](Operation *op, raw_ostream &os) {
            return translateTileModule(op, os, output, options);
          },
          [](DialectRegistry &registry) {
            registerCompileDependencies(registry);
          });
    };
    registerOne("tile-to-llvmir", "tile IR to LLVM IR (before libdevice)",
                TileOutput::LLVMIR);
    registerOne("tile-to-ptx", "tile IR to PTX assembly", TileOutput::PTX);
    registerOne("tile-to-cubin", "tile IR to a cubin assembled by ptxas",
                TileOutput::Cubin);
    return true;
  }();
  (void)registered;
}
