//===- Preprocessor.cpp - Triton-C macros ---------------------------------===//

#include "tile/TritonC/Preprocessor.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"

using namespace tile::tritonc;

namespace {

class Preprocessor {
public:
  explicit Preprocessor(const std::vector<MacroDefinition> &defines) {
    for (const auto &[name, value] : defines) {
      std::vector<Token> body;
      try {
        body = lex(value);
      } catch (CompileError &error) {
        fail({}, "in -D" + name + "=" + value + ": " + error.diag.message);
      }
      body.pop_back(); // End
      macros[name] = std::move(body);
    }
  }

  std::vector<Token> run(const std::vector<Token> &tokens) {
    size_t i = 0;
    while (i < tokens.size() && tokens[i].kind != Token::End) {
      const Token &token = tokens[i];
      if (token.atLineStart && token.is("#")) {
        i = directive(tokens, i);
        continue;
      }
      ++i;
      if (!active())
        continue;
      llvm::StringSet<> expanding;
      expand(token, token.loc, expanding);
    }
    if (!conditions.empty())
      fail(conditions.back().loc, "#if without #endif");
    Token end = tokens.back();
    output.push_back(end);
    return std::move(output);
  }

private:
  struct Condition {
    Location loc;
    bool taking;      // this branch's tokens are kept
    bool outerTaking; // the enclosing branch's tokens are kept
    bool seenElse;
  };

  bool active() const { return conditions.empty() || conditions.back().taking; }

  /// Appends `token`, replacing macro names by their bodies (recursively,
  /// but never a macro inside its own expansion, as C).
  void expand(const Token &token, Location use, llvm::StringSet<> &expanding) {
    if (token.kind == Token::Identifier && !expanding.contains(token.text)) {
      auto it = macros.find(token.text);
      if (it != macros.end()) {
        if (expanding.size() >= kMaxMacroDepth)
          fail(use, "macros expand inside each other more than " +
                        std::to_string(kMaxMacroDepth) + " levels deep (at '" +
                        token.text + "')");
        expanding.insert(token.text);
        for (const Token &inner : it->second)
          expand(inner, use, expanding);
        expanding.erase(token.text);
        return;
      }
    }
    if (output.size() >= kMaxTokens)
      fail(use, "the program expands to more than " +
                    std::to_string(kMaxTokens) + " tokens" +
                    (expanding.empty() ? std::string()
                                       : " (in the expansion of a macro)"));
    Token copy = token;
    copy.loc = use;
    copy.atLineStart = false;
    output.push_back(std::move(copy));
  }

  /// Handles the directive starting at tokens[i] ('#'); returns the index
  /// of the first token after its line.
  size_t directive(const std::vector<Token> &tokens, size_t i) {
    Location hashLoc = tokens[i].loc;
    size_t end = i + 1;
    while (tokens[end].kind != Token::End && !tokens[end].atLineStart)
      ++end;
    if (end == i + 1)
      return end; // a null directive
    const Token &name = tokens[i + 1];
    auto operandName = [&]() -> const Token & {
      if (end < i + 3 || tokens[i + 2].kind != Token::Identifier)
        fail(name.loc, "#" + name.text + " needs a macro name");
      return tokens[i + 2];
    };
    if (name.is("ifdef") || name.is("ifndef")) {
      bool defined = macros.count(operandName().text);
      bool taking = active() && (name.is("ifdef") ? defined : !defined);
      conditions.push_back({hashLoc, taking, active(), false});
    } else if (name.is("else")) {
      if (conditions.empty() || conditions.back().seenElse)
        fail(name.loc, "#else without #ifdef");
      Condition &c = conditions.back();
      c.taking = c.outerTaking && !c.taking;
      c.seenElse = true;
    } else if (name.is("endif")) {
      if (conditions.empty())
        fail(name.loc, "#endif without #ifdef");
      conditions.pop_back();
    } else if (!active()) {
      // Other directives in a skipped branch are ignored, as C does.
    } else if (name.is("define")) {
      const Token &macro = operandName();
      size_t bodyStart = i + 3;
      // "NAME(" with no space is a function-like macro.
      if (bodyStart < end && tokens[bodyStart].is("(") &&
          tokens[bodyStart].loc.line == macro.loc.line &&
          tokens[bodyStart].loc.column == macro.loc.column + macro.text.size())
        fail(tokens[bodyStart].loc,
             "function-like macros are not supported; define constants "
             "or use a function");
      // The command line wins over the file, so a kernel can give defaults.
      if (!commandLine(macro.text))
        macros[macro.text] = std::vector<Token>(tokens.begin() + bodyStart,
                                                tokens.begin() + end);
    } else if (name.is("undef")) {
      macros.erase(operandName().text);
    } else {
      fail(name.loc, "unsupported preprocessor directive '#" + name.text +
                         "' (supported: #define, #undef, #ifdef, #ifndef, "
                         "#else, #endif)");
    }
    return end;
  }

  bool commandLine(llvm::StringRef name) const {
    return commandLineNames.contains(name);
  }

public:
  llvm::StringSet<> commandLineNames;

private:
  llvm::StringMap<std::vector<Token>> macros;
  std::vector<Condition> conditions;
  std::vector<Token> output;
};

} // namespace

std::vector<Token>
tile::tritonc::preprocess(const std::vector<Token> &tokens,
                          const std::vector<MacroDefinition> &defines) {
  Preprocessor pp(defines);
  for (const auto &define : defines)
    pp.commandLineNames.insert(define.first);
  return pp.run(tokens);
}
