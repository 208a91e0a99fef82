//===- Parser.cpp - Triton-C recursive-descent parser ---------------------===//
//
// C's grammar, restricted to what kernels use, plus:
//   - tile declarators `float x[16, 8]` (a shape list in one bracket pair);
//   - ranges `0 ... 32`, binding tighter than `*` so that
//     `pid * TM + 0 ... TM` reads `pid * TM + (0 ... TM)`, as Triton-C;
//   - subscripts of `:` and `newaxis`;
//   - masks `@mask *p`, where the mask is a postfix expression (a name, a
//     call, a subscript or a parenthesized expression): `@m *p` must not
//     read as the product `m * p`.
//
//===----------------------------------------------------------------------===//

#include "tile/TritonC/Parser.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include <cerrno>
#include <cmath>

using namespace tile::tritonc;

namespace {

/// Qualifiers and attributes that say nothing the compiler uses.
bool isIgnoredQualifier(const Token &t) {
  return t.kind == Token::Identifier &&
         llvm::is_contained({"const", "restrict", "__restrict", "__restrict__",
                             "__noalias", "__readonly", "__writeonly",
                             "volatile", "__device__"},
                            t.text);
}

std::optional<ScalarKind> scalarKeyword(const Token &t) {
  if (t.kind != Token::Identifier)
    return std::nullopt;
  return llvm::StringSwitch<std::optional<ScalarKind>>(t.text)
      .Case("void", ScalarKind::Void)
      .Case("bool", ScalarKind::Bool)
      .Case("int", ScalarKind::Int)
      .Case("long", ScalarKind::Long)
      .Case("half", ScalarKind::Half)
      .Case("float", ScalarKind::Float)
      .Case("double", ScalarKind::Double)
      .Default(std::nullopt);
}

/// Words that cannot name a variable, parameter or function: C's keywords,
/// the types, qualifiers and attributes Triton-C knows, and `newaxis`.
bool isReserved(llvm::StringRef word) {
  static const llvm::StringRef reserved[] = {
      "auto",        "break",        "case",         "char",      "const",
      "continue",    "default",      "do",           "double",    "else",
      "enum",        "extern",       "float",        "for",       "goto",
      "if",          "inline",       "int",          "long",      "register",
      "restrict",    "return",       "short",        "signed",    "sizeof",
      "static",      "struct",       "switch",       "typedef",   "union",
      "unsigned",    "void",         "volatile",     "while",     "bool",
      "true",        "false",        "half",         "newaxis",   "__global__",
      "__device__",  "__restrict",   "__restrict__", "__noalias", "__readonly",
      "__writeonly", "__multipleof", "__aligned"};
  return llvm::is_contained(reserved, word);
}

/// The value of an integer literal token (decimal, hex or octal, with
/// ignored u/U and l/L suffixes); fails unless every digit is used and the
/// value fits in 64 bits.
int64_t integerLiteral(const Token &t, bool *isLong = nullptr) {
  std::string digits = t.text;
  bool longSuffix = false;
  while (!digits.empty() && llvm::is_contained("uUlL", digits.back())) {
    longSuffix |= digits.back() == 'l' || digits.back() == 'L';
    digits.pop_back();
  }
  errno = 0;
  char *end = nullptr;
  unsigned long long v = std::strtoull(digits.c_str(), &end, 0);
  if (digits.empty() || end != digits.c_str() + digits.size())
    fail(t.loc, "invalid integer literal '" + t.text + "'");
  if (errno || v > (unsigned long long)INT64_MAX)
    fail(t.loc, "integer literal '" + t.text + "' is too large");
  if (isLong)
    *isLong = longSuffix;
  return (int64_t)v;
}

class Parser {
public:
  explicit Parser(const std::vector<Token> &tokens) : tokens(tokens) {}

  TranslationUnit parseUnit() {
    TranslationUnit unit;
    while (peek().kind != Token::End)
      unit.functions.push_back(parseFunction());
    return unit;
  }

private:
  const std::vector<Token> &tokens;
  size_t pos = 0;
  unsigned statementDepth = 0;
  unsigned expressionDepth = 0;

  /// One more level of nesting for as long as it lives; fails at the
  /// current token beyond `limit`.
  class Nesting {
  public:
    Nesting(Parser &parser, unsigned &depth, unsigned limit, const char *what)
        : depth(depth) {
      if (++depth > limit)
        fail(parser.peek().loc, std::string(what) + " nested more than " +
                                    std::to_string(limit) + " levels deep");
    }
    ~Nesting() { --depth; }

  private:
    unsigned &depth;
  };
  Nesting nestStatement() {
    return Nesting(*this, statementDepth, kMaxStatementDepth, "statements");
  }
  Nesting nestExpression() {
    return Nesting(*this, expressionDepth, kMaxExpressionDepth, "expressions");
  }

  /// Sets the depth of `e` from its operands; fails beyond the limit.
  ExprPtr finish(ExprPtr e) {
    for (const ExprPtr &operand : e->operands)
      e->depth = std::max(e->depth, operand->depth + 1);
    if (e->depth > kMaxExpressionDepth)
      fail(e->loc, "expressions nested more than " +
                       std::to_string(kMaxExpressionDepth) +
                       " levels deep (each operator of a chain is a level)");
    return e;
  }

  /// An identifier that names something the program declares.
  const Token &expectName(llvm::StringRef what) {
    const Token &name = expectIdentifier(what);
    if (isReserved(name.text))
      fail(name.loc, "'" + name.text + "' is a keyword and cannot be used as " +
                         what.str());
    return name;
  }

  const Token &peek(size_t ahead = 0) const {
    return tokens[std::min(pos + ahead, tokens.size() - 1)];
  }
  const Token &next() {
    const Token &t = peek();
    if (t.kind != Token::End)
      ++pos;
    return t;
  }
  bool accept(llvm::StringRef spelling) {
    if (!peek().is(spelling))
      return false;
    ++pos;
    return true;
  }
  [[noreturn]] void unexpected(llvm::StringRef what) {
    const Token &t = peek();
    std::string found =
        t.kind == Token::End ? "end of file" : "'" + t.text + "'";
    fail(t.loc, "expected " + what.str() + ", found " + found);
  }
  const Token &expect(llvm::StringRef spelling) {
    if (!peek().is(spelling))
      unexpected("'" + spelling.str() + "'");
    return next();
  }
  const Token &expectIdentifier(llvm::StringRef what) {
    if (peek().kind != Token::Identifier)
      unexpected(what);
    return next();
  }

  bool startsType() const {
    size_t i = 0;
    while (isIgnoredQualifier(peek(i)))
      ++i;
    return scalarKeyword(peek(i)).has_value();
  }

  void skipQualifiers() {
    while (isIgnoredQualifier(peek()))
      next();
  }

  /// A base type without `*`: qualifiers, a scalar keyword, qualifiers.
  TypeSpec parseBaseType() {
    skipQualifiers();
    TypeSpec type;
    type.loc = peek().loc;
    auto scalar = scalarKeyword(peek());
    if (!scalar)
      unexpected("a type (void, bool, int, long, half, float, double)");
    next();
    type.scalar = *scalar;
    skipQualifiers();
    return type;
  }

  /// `*`s after a base type; tiles of pointers have one level.
  TypeSpec parsePointer(TypeSpec type) {
    if (accept("*")) {
      type.pointer = true;
      skipQualifiers();
      if (peek().is("*"))
        fail(peek().loc, "pointers to pointers are not supported");
    }
    return type;
  }

  int64_t parseAttributeNumber() {
    expect("(");
    if (peek().kind != Token::Integer)
      unexpected("an integer");
    int64_t value = integerLiteral(next());
    expect(")");
    return value;
  }

  /// `name[shape] __multipleof(16)` after a type.
  Declarator parseDeclarator(TypeSpec type, bool allowInit) {
    Declarator d;
    d.type = type;
    auto attributes = [&] {
      for (;;) {
        skipQualifiers();
        if (accept("__multipleof") || accept("__aligned")) {
          Location loc = tokens[pos - 1].loc;
          d.multipleOf = parseAttributeNumber();
          if (d.multipleOf <= 0 || (d.multipleOf & (d.multipleOf - 1)))
            fail(loc, "the divisibility must be a power of two");
          continue;
        }
        break;
      }
    };
    attributes();
    const Token &name = expectName("a name");
    d.name = name.text;
    d.loc = name.loc;
    if (accept("[")) {
      do {
        d.shape.push_back(parseConditional());
      } while (accept(","));
      expect("]");
    }
    attributes();
    if (allowInit && accept("="))
      d.init = parseAssignment();
    return d;
  }

  Function parseFunction() {
    Function f;
    f.isKernel = accept("__global__");
    f.returnType = parsePointer(parseBaseType());
    const Token &name = expectName("a function name");
    f.name = name.text;
    f.loc = name.loc;
    expect("(");
    if (!peek().is(")") && !(peek().is("void") && peek(1).is(")"))) {
      do {
        TypeSpec type = parsePointer(parseBaseType());
        f.params.push_back(parseDeclarator(type, /*allowInit=*/false));
      } while (accept(","));
    } else {
      accept("void");
    }
    expect(")");
    if (!peek().is("{"))
      unexpected("'{' (function declarations without bodies are not "
                 "supported)");
    f.body = parseStatement();
    return f;
  }

  StmtPtr parseDeclaration() {
    auto stmt = std::make_unique<Stmt>(Stmt::Decl, peek().loc);
    TypeSpec base = parseBaseType();
    do {
      stmt->declarators.push_back(
          parseDeclarator(parsePointer(base), /*allowInit=*/true));
    } while (accept(","));
    return stmt;
  }

  StmtPtr parseSimpleStatement() {
    if (startsType())
      return parseDeclaration();
    auto stmt = std::make_unique<Stmt>(Stmt::ExprStmt, peek().loc);
    stmt->expr = parseExpression();
    return stmt;
  }

  StmtPtr parseStatement() {
    Nesting nesting = nestStatement();
    const Token &t = peek();
    Location loc = t.loc;
    if (accept("{")) {
      auto block = std::make_unique<Stmt>(Stmt::Block, loc);
      while (!accept("}")) {
        if (peek().kind == Token::End)
          unexpected("'}'");
        block->stmts.push_back(parseStatement());
      }
      return block;
    }
    if (accept(";"))
      return std::make_unique<Stmt>(Stmt::Empty, loc);
    if (accept("if")) {
      auto stmt = std::make_unique<Stmt>(Stmt::If, loc);
      expect("(");
      stmt->expr = parseExpression();
      expect(")");
      stmt->body = parseStatement();
      if (accept("else"))
        stmt->elseBody = parseStatement();
      return stmt;
    }
    if (accept("while")) {
      auto stmt = std::make_unique<Stmt>(Stmt::While, loc);
      expect("(");
      stmt->expr = parseExpression();
      expect(")");
      stmt->body = parseStatement();
      return stmt;
    }
    if (accept("for")) {
      auto stmt = std::make_unique<Stmt>(Stmt::For, loc);
      expect("(");
      if (!accept(";")) {
        stmt->init = parseSimpleStatement();
        expect(";");
      }
      if (!peek().is(";"))
        stmt->expr = parseExpression();
      expect(";");
      if (!peek().is(")"))
        stmt->step = parseExpression();
      expect(")");
      stmt->body = parseStatement();
      return stmt;
    }
    if (accept("return")) {
      auto stmt = std::make_unique<Stmt>(Stmt::Return, loc);
      if (!peek().is(";"))
        stmt->expr = parseExpression();
      expect(";");
      return stmt;
    }
    if (t.is("break") || t.is("continue") || t.is("do") || t.is("switch") ||
        t.is("goto"))
      fail(loc, "'" + t.text + "' is not supported in Triton-C kernels");
    StmtPtr stmt = parseSimpleStatement();
    expect(";");
    return stmt;
  }

  // Expressions, lowest precedence first.

  ExprPtr parseExpression() {
    if (peek().is(","))
      unexpected("an expression");
    return parseAssignment();
  }

  ExprPtr parseAssignment() {
    ExprPtr lhs = parseConditional();
    const Token &t = peek();
    if (t.kind == Token::Punct &&
        llvm::is_contained(
            {"=", "+=", "-=", "*=", "/=", "%=", "<<=", ">>=", "&=", "|=", "^="},
            t.text)) {
      next();
      Nesting nesting = nestExpression();
      auto e = std::make_unique<Expr>(Expr::Assign, t.loc);
      e->op = t.text;
      e->operands.push_back(std::move(lhs));
      e->operands.push_back(parseAssignment());
      return finish(std::move(e));
    }
    return lhs;
  }

  ExprPtr parseConditional() {
    ExprPtr cond = parseBinary(0);
    if (!peek().is("?"))
      return cond;
    auto e = std::make_unique<Expr>(Expr::Ternary, next().loc);
    Nesting nesting = nestExpression();
    e->operands.push_back(std::move(cond));
    e->operands.push_back(parseExpression());
    expect(":");
    e->operands.push_back(parseConditional());
    return finish(std::move(e));
  }

  static int precedence(const Token &t) {
    if (t.kind != Token::Punct)
      return -1;
    return llvm::StringSwitch<int>(t.text)
        .Case("||", 0)
        .Case("&&", 1)
        .Case("|", 2)
        .Case("^", 3)
        .Case("&", 4)
        .Case("==", 5)
        .Case("!=", 5)
        .Case("<", 6)
        .Case(">", 6)
        .Case("<=", 6)
        .Case(">=", 6)
        .Case("<<", 7)
        .Case(">>", 7)
        .Case("+", 8)
        .Case("-", 8)
        .Case("*", 9)
        .Case("/", 9)
        .Case("%", 9)
        .Default(-1);
  }

  /// Left-associative binary operators by precedence climbing.
  ExprPtr parseBinary(int minPrecedence) {
    ExprPtr lhs = parseRange();
    for (;;) {
      const Token &t = peek();
      int p = precedence(t);
      if (p < minPrecedence)
        return lhs;
      next();
      auto e = std::make_unique<Expr>(Expr::Binary, t.loc);
      e->op = t.text;
      e->operands.push_back(std::move(lhs));
      e->operands.push_back(parseBinary(p + 1));
      lhs = finish(std::move(e));
    }
  }

  ExprPtr parseRange() {
    ExprPtr lo = parseUnary();
    if (!peek().is("..."))
      return lo;
    auto e = std::make_unique<Expr>(Expr::Range, next().loc);
    e->operands.push_back(std::move(lo));
    e->operands.push_back(parseUnary());
    return finish(std::move(e));
  }

  ExprPtr parseUnary() {
    const Token &t = peek();
    if (t.kind == Token::Punct &&
        llvm::is_contained({"-", "+", "!", "~", "*", "++", "--"}, t.text)) {
      next();
      Nesting nesting = nestExpression();
      auto e = std::make_unique<Expr>(Expr::Unary, t.loc);
      e->op = t.text == "++" ? "pre++" : t.text == "--" ? "pre--" : t.text;
      e->operands.push_back(parseUnary());
      return finish(std::move(e));
    }
    if (t.is("&"))
      fail(t.loc, "'&' (address-of) is not supported: tiles are values");
    if (t.is("@")) {
      next();
      Nesting nesting = nestExpression();
      auto e = std::make_unique<Expr>(Expr::Masked, t.loc);
      e->operands.push_back(parsePostfix());
      if (!peek().is("*"))
        unexpected("'*' after the mask (write '@mask *pointers')");
      e->operands.push_back(parseUnary());
      return finish(std::move(e));
    }
    if (t.is("(") && scalarKeyword(peek(1))) {
      next();
      Nesting nesting = nestExpression();
      auto e = std::make_unique<Expr>(Expr::Cast, t.loc);
      e->castType = parsePointer(parseBaseType());
      expect(")");
      e->operands.push_back(parseUnary());
      return finish(std::move(e));
    }
    return parsePostfix();
  }

  ExprPtr parsePostfix() {
    ExprPtr e = parsePrimary();
    for (;;) {
      const Token &t = peek();
      if (t.is("[")) {
        next();
        Nesting nesting = nestExpression();
        auto sub = std::make_unique<Expr>(Expr::Subscript, t.loc);
        sub->operands.push_back(std::move(e));
        do {
          Location loc = peek().loc;
          if (accept(":")) {
            sub->slices.push_back({Expr::Slice::All, loc});
          } else if (accept("newaxis")) {
            sub->slices.push_back({Expr::Slice::NewAxis, loc});
          } else {
            parseConditional(); // checked: subscripts never dereference
            sub->slices.push_back({Expr::Slice::Index, loc});
          }
        } while (accept(","));
        expect("]");
        e = finish(std::move(sub));
      } else if (t.is("(")) {
        if (e->kind != Expr::Name)
          fail(t.loc, "only named functions can be called");
        next();
        Nesting nesting = nestExpression();
        auto call = std::make_unique<Expr>(Expr::Call, e->loc);
        call->op = e->name;
        if (!accept(")")) {
          do {
            call->operands.push_back(parseAssignment());
          } while (accept(","));
          expect(")");
        }
        e = finish(std::move(call));
      } else if (t.is("++") || t.is("--")) {
        next();
        auto post = std::make_unique<Expr>(Expr::Unary, t.loc);
        post->op = t.text == "++" ? "post++" : "post--";
        post->operands.push_back(std::move(e));
        e = finish(std::move(post));
      } else if (t.is(".") || t.is("->")) {
        fail(t.loc, "structures are not supported");
      } else {
        return e;
      }
    }
  }

  ExprPtr parsePrimary() {
    const Token &t = peek();
    switch (t.kind) {
    case Token::Integer: {
      next();
      auto e = std::make_unique<Expr>(Expr::IntLit, t.loc);
      e->value = integerLiteral(t, &e->isLong);
      return e;
    }
    case Token::Float: {
      next();
      auto e = std::make_unique<Expr>(Expr::FloatLit, t.loc);
      std::string digits = t.text;
      while (!digits.empty() && llvm::is_contained("fFhHlL", digits.back()))
        digits.pop_back();
      char *end = nullptr;
      e->floatValue = std::strtod(digits.c_str(), &end);
      if (end != digits.c_str() + digits.size())
        fail(t.loc, "invalid floating-point literal '" + t.text + "'");
      if (std::isinf(e->floatValue))
        fail(t.loc, "floating-point literal '" + t.text +
                        "' is too large for a double");
      return e;
    }
    case Token::Identifier: {
      if (t.is("true") || t.is("false")) {
        next();
        auto e = std::make_unique<Expr>(Expr::BoolLit, t.loc);
        e->value = t.is("true");
        return e;
      }
      if (scalarKeyword(t) || t.is("if") || t.is("for") || t.is("while") ||
          t.is("return") || t.is("else"))
        unexpected("an expression");
      next();
      auto e = std::make_unique<Expr>(Expr::Name, t.loc);
      e->name = t.text;
      return e;
    }
    case Token::Punct:
      if (t.is("(")) {
        next();
        Nesting nesting = nestExpression();
        ExprPtr inner = parseExpression();
        expect(")");
        return inner;
      }
      break;
    case Token::End:
      break;
    }
    unexpected("an expression");
  }
};

} // namespace

TranslationUnit tile::tritonc::parse(const std::vector<Token> &tokens) {
  return Parser(tokens).parseUnit();
}
