//===- Compile.cpp - C API: compile tile IR to PTX and cubins -------------===//

#include "tile-c/Compile.h"
#include "tile/Target/Compile.h"

#include <cstring>
#include <string>

struct TileCompileResult {
  mlir::tile::CompileResult result;
  std::string metadata;
};

#ifndef TILE_VERSION
#define TILE_VERSION "0.1.0"
#endif

extern "C" {

static void setIfGiven(std::string &field, const char *value) {
  if (value && *value)
    field = value;
}

static TileCompileResult *compile(const char *irText, size_t irSize,
                                  const TileCompileOptions &in, int numWarps) {
  auto *handle = new TileCompileResult();
  // Checked here as an int: a negative count must not wrap to a large one.
  std::optional<std::string> error = mlir::tile::checkNumWarps(numWarps);
  if (!error)
    error = mlir::tile::checkMaxRegisters(in.maxRegisters);
  if (error) {
    handle->result.diagnostics = "error: " + *error + "\n";
    return handle;
  }
  mlir::tile::CompileOptions options;
  options.numWarps = numWarps;
  options.emitCubin = in.emitCubin != 0;
  options.lineInfo = in.disableLineInfo == 0;
  options.fpFusion = in.disableFpFusion == 0;
  options.reflectFtz = in.disableReflectFtz == 0;
  options.maxRegisters = static_cast<unsigned>(in.maxRegisters);
  if (in.numStages > 0)
    options.numStages = in.numStages;
  // NULL is the default chip; any string, "" included, is checked.
  if (in.chip)
    options.chip = in.chip;
  setIfGiven(options.cudaToolkit, in.cudaToolkit);
  setIfGiven(options.ptxas, in.ptxas);
  setIfGiven(options.nvJitLink, in.nvJitLink);
  setIfGiven(options.libdevice, in.libdevice);
  handle->result = mlir::tile::compileTileSource(
      llvm::StringRef(irText ? irText : "", irText ? irSize : 0),
      in.bufferName && *in.bufferName ? in.bufferName : "<tile>", options);
  if (handle->result.succeeded)
    handle->metadata = handle->result.metadataJson();
  return handle;
}

TileCompileResult *tileCompileWith(const char *irText, size_t irSize,
                                   const TileCompileOptions *options) {
  TileCompileOptions defaults = {};
  const TileCompileOptions &in = options ? *options : defaults;
  return compile(irText, irSize, in, in.numWarps ? in.numWarps : 4);
}

TileCompileResult *tileCompileWithOptions(const char *irText, size_t irSize,
                                          const char *bufferName,
                                          const char *chip, int numWarps,
                                          int emitCubin,
                                          const char *cudaToolkit) {
  TileCompileOptions options = {};
  options.bufferName = bufferName;
  options.chip = chip;
  options.numWarps = numWarps;
  options.emitCubin = emitCubin;
  options.cudaToolkit = cudaToolkit;
  return compile(irText, irSize, options, numWarps);
}

TileCompileResult *tileCompile(const char *irText, size_t irSize,
                               const char *chip, int numWarps, int emitCubin) {
  return tileCompileWithOptions(irText, irSize, nullptr, chip, numWarps,
                                emitCubin, nullptr);
}

int tileCompileSucceeded(const TileCompileResult *result) {
  return result && result->result.succeeded ? 1 : 0;
}

const char *tileCompileResultGet(const TileCompileResult *result,
                                 const char *what, size_t *size) {
  if (!result || !what)
    return nullptr;
  const std::string *text = nullptr;
  if (!std::strcmp(what, "diagnostics"))
    text = &result->result.diagnostics;
  else if (!std::strcmp(what, "llir"))
    text = &result->result.llvmIR;
  else if (!std::strcmp(what, "ptx"))
    text = &result->result.ptx;
  else if (!std::strcmp(what, "cubin"))
    text = &result->result.cubin;
  else if (!std::strcmp(what, "cubin_without_limit"))
    text = &result->result.cubinWithoutLimit;
  else if (!std::strcmp(what, "metadata"))
    text = &result->metadata;
  if (!text)
    return nullptr;
  if (size)
    *size = text->size();
  return text->c_str();
}

void tileCompileResultDestroy(TileCompileResult *result) { delete result; }

const char *tileCompilerVersion(void) { return TILE_VERSION; }

const char *tileSupportedChips(void) {
  static const std::string chips = [] {
    std::string text;
    for (const mlir::tile::ChipInfo &chip : mlir::tile::getSupportedChips())
      text += (text.empty() ? "" : ",") + chip.name.str();
    return text;
  }();
  return chips.c_str();
}

} // extern "C"
