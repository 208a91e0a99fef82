//===- Frontend.cpp - Triton-C to tile IR ---------------------------------===//

#include "tile/TritonC/Frontend.h"

#include "Emitter.h"

#include "tile/TritonC/Parser.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/ProgramStack.h"

using namespace tile::tritonc;

FrontendResult tile::tritonc::translateToTile(llvm::StringRef source,
                                              llvm::StringRef fileName,
                                              const FrontendOptions &options) {
  FrontendResult result;
  llvm::runOnNewStack(kFrontendStackBytes, [&] {
    try {
      std::vector<Token> tokens = preprocess(lex(source), options.defines);
      TranslationUnit unit = parse(tokens);
      Emitter emitter(
          {fileName.str(), options.assumeAligned, options.numWarps});
      result.tileIR = emitter.emitUnit(unit);
      result.numWarps = emitter.chosenNumWarps();
      result.succeeded = true;
    } catch (const CompileError &error) {
      result.diagnostics = formatDiagnostic(error.diag, fileName, source);
    }
  });
  return result;
}

namespace {
/// "x.y-z" -> "x_y-z": keeps variant file names to safe characters.
std::string fileNamePart(llvm::StringRef value) {
  std::string s;
  for (char c : value)
    if (llvm::isAlnum(c) || c == '-' || c == '_')
      s += c;
    else if (c != ' ')
      s += '_';
  return s;
}
} // namespace

std::vector<Variant>
tile::tritonc::expandVariants(const std::vector<MacroDefinition> &defines,
                              std::string &error) {
  std::vector<Variant> variants(1);
  for (const auto &[name, rawValue] : defines) {
    llvm::StringRef value = llvm::StringRef(rawValue).trim();
    if (!value.starts_with("[")) {
      for (Variant &v : variants)
        v.defines.push_back({name, rawValue});
      continue;
    }
    if (!value.ends_with("]")) {
      error = "-D" + name + "=" + rawValue + ": a list must end with ']'";
      return {};
    }
    llvm::SmallVector<llvm::StringRef> items;
    value.drop_front().drop_back().split(items, ',');
    std::vector<Variant> expanded;
    for (const Variant &v : variants) {
      for (llvm::StringRef item : items) {
        item = item.trim();
        if (item.empty()) {
          error = "-D" + name + "=" + rawValue + ": an empty list item";
          return {};
        }
        Variant copy = v;
        copy.defines.push_back({name, item.str()});
        copy.tuned.push_back({name, item.str()});
        copy.suffix += "." + name + fileNamePart(item);
        expanded.push_back(std::move(copy));
      }
    }
    variants = std::move(expanded);
  }
  return variants;
}
