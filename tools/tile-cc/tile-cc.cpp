//===- tile-cc.cpp - the Triton-C compiler driver -------------------------===//
//
//   tile-cc kernel.tc -DSIZE=128 --emit=tile  -o k.mlir   tile IR
//   tile-cc kernel.tc -DSIZE=128 --emit=ptx   -o k.ptx    PTX, and k.json
//   tile-cc kernel.tc -DSIZE=[32,64] --emit=cubin -o k.cubin
//       k.SIZE32.cubin + k.SIZE32.json, k.SIZE64.cubin + k.SIZE64.json, and
//       the index k.variants.json for the auto-tuner (python/tile/tritonc.py)
//
// PTX and cubins come from compileTileSource, the pipeline every frontend
// uses; the JSON beside each holds the kernels' launch facts, and where the
// compile made one, X.without-limit.cubin beside X.cubin holds the cubin for
// grids that fit at once (see Compile.h, getCubinWithoutLimitPath).
//
//===----------------------------------------------------------------------===//

#include "tile/Target/CodegenFlags.h"
#include "tile/Target/Compile.h"
#include "tile/TritonC/Frontend.h"

#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/WithColor.h"

using namespace llvm;
using namespace tile::tritonc;

namespace {
cl::OptionCategory toolOptions("tile-cc options");
enum class Emit { Tile, PTX, Cubin };

cl::opt<std::string> inputFilename(cl::cat(toolOptions), cl::Positional,
                                   cl::desc("<input .tc>"), cl::init("-"));
cl::opt<std::string> outputFilename(cl::cat(toolOptions), "o",
                                    cl::desc("Output file"),
                                    cl::value_desc("filename"), cl::init("-"));
cl::list<std::string>
    defines(cl::cat(toolOptions), "D", cl::Prefix,
            cl::desc("Define a macro: -DNAME=VALUE, or -DNAME=[V1, V2, ...] "
                     "to compile one variant per value (auto-tuning)"),
            cl::value_desc("NAME=VALUE"));
cl::opt<Emit> emit(cl::cat(toolOptions), "emit", cl::desc("What to produce:"),
                   cl::values(clEnumValN(Emit::Tile, "tile", "tile IR"),
                              clEnumValN(Emit::PTX, "ptx", "PTX assembly"),
                              clEnumValN(Emit::Cubin, "cubin",
                                         "a cubin assembled by ptxas")),
                   cl::init(Emit::PTX));
cl::opt<std::string> chip(cl::cat(toolOptions), "chip",
                          cl::desc("Target GPU (default sm_90)"),
                          cl::init("sm_90"));
cl::opt<unsigned> numWarps(
    cl::cat(toolOptions), "num-warps",
    cl::desc("Warps per program (default: chosen from the tile sizes)"),
    cl::init(0));
cl::opt<bool>
    noAssumeAligned(cl::cat(toolOptions), "fno-assume-aligned",
                    cl::desc("Do not assume 16-byte aligned pointer arguments"),
                    cl::init(false));
mlir::tile::CodegenFlags codegenFlags("", toolOptions);
cl::opt<std::string> cudaPath(cl::cat(toolOptions), "cuda-path",
                              cl::desc("CUDA toolkit (ptxas, libdevice)"),
                              cl::init(""));

/// "out.ptx" + ".SIZE32" -> "out.SIZE32.ptx".
std::string withSuffix(StringRef path, StringRef suffix, StringRef extension) {
  SmallString<256> result(path);
  sys::path::replace_extension(result, "");
  result += suffix;
  result += extension;
  return std::string(result);
}

bool writeFile(StringRef path, StringRef contents) {
  std::string error;
  auto file = mlir::openOutputFile(path, &error);
  if (!file) {
    WithColor::error() << error << "\n";
    return false;
  }
  file->os() << contents;
  file->keep();
  return true;
}

struct VariantOutput {
  const Variant *variant;
  std::string file, metadata;
  unsigned numWarps;
  json::Value launchFacts = nullptr;
};

/// Compiles one variant; writes its output (and launch facts JSON).
bool compileVariant(StringRef source, const Variant &variant,
                    VariantOutput &result) {
  FrontendOptions options;
  options.defines = variant.defines;
  options.assumeAligned = !noAssumeAligned;
  options.numWarps = numWarps;
  std::string name = inputFilename == "-" ? std::string("<stdin>")
                                          : std::string(inputFilename);
  FrontendResult tile = translateToTile(source, name, options);
  if (!tile.succeeded) {
    if (!variant.tuned.empty()) {
      errs() << "in the variant";
      for (const auto &[key, value] : variant.tuned)
        errs() << " " << key << "=" << value;
      errs() << ":\n";
    }
    errs() << tile.diagnostics;
    return false;
  }
  result.numWarps = tile.numWarps;
  StringRef extension = emit == Emit::Tile  ? ".mlir"
                        : emit == Emit::PTX ? ".ptx"
                                            : ".cubin";
  result.file =
      outputFilename == "-"
          ? "-"
          : (variant.suffix.empty()
                 ? std::string(outputFilename)
                 : withSuffix(outputFilename, variant.suffix, extension));
  if (emit == Emit::Tile)
    return writeFile(result.file, tile.tileIR);

  mlir::tile::CompileOptions compile;
  compile.chip = chip;
  compile.numWarps = tile.numWarps;
  compile.cudaToolkit = cudaPath;
  compile.emitCubin = emit == Emit::Cubin;
  codegenFlags.apply(compile);
  // The IR buffer has its own name: its ops are located in the Triton-C
  // file, whose lines the diagnostics then quote.
  mlir::tile::CompileResult compiled = mlir::tile::compileTileSource(
      tile.tileIR, "<tile IR of " + name + ">", compile);
  if (!compiled.succeeded) {
    errs() << compiled.diagnostics;
    return false;
  }
  if (!writeFile(result.file,
                 emit == Emit::PTX ? compiled.ptx : compiled.cubin))
    return false;
  if (emit == Emit::Cubin && !compiled.cubinWithoutLimit.empty() &&
      result.file != "-" &&
      !writeFile(mlir::tile::getCubinWithoutLimitPath(result.file),
                 compiled.cubinWithoutLimit))
    return false;
  std::string facts = compiled.metadataJson();
  if (auto parsed = json::parse(facts))
    result.launchFacts = std::move(*parsed);
  else
    consumeError(parsed.takeError());
  if (result.file != "-") {
    SmallString<256> metadata(result.file);
    sys::path::replace_extension(metadata, "json");
    result.metadata = std::string(metadata);
    return writeFile(result.metadata, facts + "\n");
  }
  return true;
}

/// The auto-tuner's index: every variant's defines, files and launch facts.
bool writeIndex(const std::vector<VariantOutput> &outputs) {
  json::Array variants;
  json::Array tuned;
  for (const auto &[name, value] : outputs.front().variant->tuned)
    tuned.push_back(name);
  for (const VariantOutput &out : outputs) {
    json::Object values;
    for (const auto &[name, value] : out.variant->tuned)
      values[name] = value;
    json::Object entry{{"defines", std::move(values)},
                       {"file", sys::path::filename(out.file).str()},
                       {"num_warps", out.numWarps}};
    if (!out.metadata.empty())
      entry["metadata"] = sys::path::filename(out.metadata).str();
    if (out.launchFacts.kind() != json::Value::Null)
      entry["launch"] = out.launchFacts;
    variants.push_back(std::move(entry));
  }
  json::Object index{{"source", std::string(inputFilename)},
                     {"emit", emit == Emit::Tile  ? "tile"
                              : emit == Emit::PTX ? "ptx"
                                                  : "cubin"},
                     {"tuned", std::move(tuned)},
                     {"variants", std::move(variants)}};
  std::string text;
  raw_string_ostream os(text);
  os << formatv("{0:2}", json::Value(std::move(index))) << "\n";
  return writeFile(withSuffix(outputFilename, ".variants", ".json"), text);
}
} // namespace

int main(int argc, char **argv) {
  InitLLVM init(argc, argv);
  // Only our options in --help, not every LLVM backend flag.
  cl::HideUnrelatedOptions(toolOptions);
  cl::ParseCommandLineOptions(argc, argv, "Triton-C compiler\n");
  // Checked up front, also for --emit=tile, which does not use them.
  std::optional<std::string> optionError = mlir::tile::checkChip(chip);
  if (!optionError && numWarps != 0)
    optionError = mlir::tile::checkNumWarps(numWarps);
  if (optionError) {
    WithColor::error() << *optionError << "\n";
    return 1;
  }

  std::vector<MacroDefinition> macros;
  for (const std::string &define : defines) {
    auto [name, value] = StringRef(define).split('=');
    if (name.empty()) {
      WithColor::error() << "-D needs a name: -D" << define << "\n";
      return 1;
    }
    // -DNAME alone defines NAME as 1, as C compilers do.
    macros.push_back(
        {name.str(), StringRef(define).contains('=') ? value.str() : "1"});
  }
  std::string error;
  std::vector<Variant> variants = expandVariants(macros, error);
  if (variants.empty()) {
    WithColor::error() << error << "\n";
    return 1;
  }
  bool tuning = variants.size() > 1 || !variants.front().tuned.empty();
  if (tuning && outputFilename == "-") {
    WithColor::error() << "a -D list compiles several variants: name the "
                          "output with -o\n";
    return 1;
  }

  std::string readError;
  auto input = mlir::openInputFile(inputFilename, &readError);
  if (!input) {
    WithColor::error() << readError << "\n";
    return 1;
  }
  std::vector<VariantOutput> outputs(variants.size());
  for (size_t i = 0; i < variants.size(); ++i) {
    outputs[i].variant = &variants[i];
    if (!compileVariant(input->getBuffer(), variants[i], outputs[i]))
      return 1;
  }
  if (tuning && !writeIndex(outputs))
    return 1;
  return 0;
}
