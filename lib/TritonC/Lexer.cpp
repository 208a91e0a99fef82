//===- Lexer.cpp - Triton-C tokens ----------------------------------------===//

#include "tile/TritonC/Lexer.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"

using namespace tile::tritonc;

std::string tile::tritonc::formatDiagnostic(const Diagnostic &diag,
                                            llvm::StringRef fileName,
                                            llvm::StringRef source) {
  std::string text;
  llvm::raw_string_ostream os(text);
  // Line 0: the error is in a command-line macro, not in the file.
  if (diag.loc.line == 0) {
    os << "<command line>: error: " << diag.message << "\n";
    return text;
  }
  os << fileName << ":" << diag.loc.line << ":" << diag.loc.column
     << ": error: " << diag.message << "\n";
  llvm::SmallVector<llvm::StringRef> lines;
  source.split(lines, '\n');
  if (diag.loc.line > lines.size())
    return text;
  llvm::StringRef line = lines[diag.loc.line - 1].rtrim("\r");
  os << line << "\n";
  // Keep tabs so that the caret lines up under tab-indented source.
  for (unsigned i = 1; i < diag.loc.column && i <= line.size(); ++i)
    os << (line[i - 1] == '\t' ? '\t' : ' ');
  os << "^\n";
  return text;
}

void tile::tritonc::fail(Location loc, std::string message) {
  throw CompileError{Diagnostic{loc, std::move(message)}};
}

namespace {
// Longest first, so that "<<=" is not lexed as "<<" "=".
const char *const punctuators[] = {
    "...", "<<=", ">>=", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||", "++",
    "--",  "+=",  "-=",  "*=", "/=", "%=", "&=", "|=", "^=", "->", "+",  "-",
    "*",   "/",   "%",   "<",  ">",  "=",  "!",  "~",  "&",  "|",  "^",  "?",
    ":",   ";",   ",",   ".",  "(",  ")",  "[",  "]",  "{",  "}",  "@",  "#"};

bool isIdentifierStart(char c) { return llvm::isAlpha(c) || c == '_'; }
bool isIdentifierChar(char c) { return llvm::isAlnum(c) || c == '_'; }
} // namespace

std::vector<Token> tile::tritonc::lex(llvm::StringRef source) {
  std::vector<Token> tokens;
  unsigned line = 1, column = 1;
  bool lineStart = true;
  size_t i = 0;
  auto advance = [&](size_t n) {
    for (size_t k = 0; k < n && i < source.size(); ++k, ++i) {
      if (source[i] == '\n') {
        ++line;
        column = 1;
        lineStart = true;
      } else {
        ++column;
      }
    }
  };
  while (i < source.size()) {
    char c = source[i];
    // A backslash-newline continues a logical line (multi-line #define).
    if (c == '\\' && i + 1 < source.size() && source[i + 1] == '\n') {
      advance(1);
      ++i, ++line, column = 1;
      continue;
    }
    if (llvm::isSpace(c)) {
      advance(1);
      continue;
    }
    if (source.substr(i).starts_with("//")) {
      while (i < source.size() && source[i] != '\n')
        advance(1);
      continue;
    }
    if (source.substr(i).starts_with("/*")) {
      Location start{line, column};
      size_t end = source.find("*/", i + 2);
      if (end == llvm::StringRef::npos)
        fail(start, "unterminated comment");
      advance(end + 2 - i);
      continue;
    }
    Token token;
    token.loc = {line, column};
    token.atLineStart = lineStart;
    size_t start = i;
    if (isIdentifierStart(c)) {
      while (i < source.size() && isIdentifierChar(source[i]))
        advance(1);
      token.kind = Token::Identifier;
    } else if (llvm::isDigit(c) || (c == '.' && i + 1 < source.size() &&
                                    llvm::isDigit(source[i + 1]))) {
      bool isFloat = false;
      if (source.substr(i).starts_with_insensitive("0x")) {
        advance(2);
        while (i < source.size() && llvm::isHexDigit(source[i]))
          advance(1);
      } else {
        while (i < source.size() && llvm::isDigit(source[i]))
          advance(1);
        // "0 ... 32" and "0...32": a '.' followed by '.' is a range.
        if (i < source.size() && source[i] == '.' &&
            !source.substr(i).starts_with("..")) {
          isFloat = true;
          advance(1);
          while (i < source.size() && llvm::isDigit(source[i]))
            advance(1);
        }
        if (i < source.size() && (source[i] == 'e' || source[i] == 'E')) {
          isFloat = true;
          advance(1);
          if (i < source.size() && (source[i] == '+' || source[i] == '-'))
            advance(1);
          if (i >= source.size() || !llvm::isDigit(source[i]))
            fail({line, column}, "expected digits in the exponent");
          while (i < source.size() && llvm::isDigit(source[i]))
            advance(1);
        }
      }
      // Suffixes: f/F make a float; u/U/l/L are accepted and ignored.
      while (i < source.size() && llvm::is_contained("fFuUlLhH", source[i])) {
        if (source[i] == 'f' || source[i] == 'F')
          isFloat = true;
        advance(1);
      }
      if (i < source.size() && isIdentifierChar(source[i]))
        fail({line, column},
             std::string("invalid character '") + source[i] + "' in a number");
      token.kind = isFloat ? Token::Float : Token::Integer;
    } else {
      for (const char *p : punctuators) {
        if (source.substr(i).starts_with(p)) {
          advance(strlen(p));
          token.kind = Token::Punct;
          break;
        }
      }
      if (token.kind != Token::Punct) {
        std::string shown = llvm::isPrint(c)
                                ? std::string(1, c)
                                : "\\x" + llvm::utohexstr((unsigned char)c);
        fail(token.loc, "unexpected character '" + shown + "'");
      }
    }
    token.text = source.substr(start, i - start).str();
    lineStart = false;
    tokens.push_back(std::move(token));
  }
  Token end;
  end.loc = {line, column};
  end.atLineStart = true;
  tokens.push_back(end);
  return tokens;
}
