//===- PTXAsm.cpp - the PTX the lowering writes by hand -------------------===//

#include "PTXAsm.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

using namespace mlir;
using namespace mlir::tile::lowering;

static LLVM::InlineAsmOp createAsm(OpBuilder &builder, Location loc,
                                   Type resultType, ValueRange operands,
                                   StringRef text, StringRef constraints,
                                   bool hasSideEffects) {
  return LLVM::InlineAsmOp::create(
      builder, loc, resultType, operands, text, constraints, hasSideEffects,
      /*is_align_stack=*/false, LLVM::tailcallkind::TailCallKind::None,
      LLVM::AsmDialectAttr::get(builder.getContext(), LLVM::AsmDialect::AD_ATT),
      ArrayAttr());
}

/// PTX register constraint for a word of `bits` bits.
static StringRef wordConstraint(int64_t bits) {
  return bits == 64 ? "l" : bits == 32 ? "r" : "h";
}

/// `{$first, $first+1, ...}` for a vector access, `$first` for one word.
static void printOperandList(llvm::raw_ostream &os, int64_t first,
                             int64_t count) {
  if (count > 1)
    os << "{";
  for (int64_t i = 0; i < count; ++i)
    os << (i ? ", " : "") << "$" << first + i;
  if (count > 1)
    os << "}";
}

Value mlir::tile::lowering::createPureF32Asm(OpBuilder &builder, Location loc,
                                             StringRef instruction,
                                             ValueRange operands) {
  std::string constraints = "=f";
  for (size_t i = 0; i < operands.size(); ++i)
    constraints += ",f";
  return createAsm(builder, loc, builder.getF32Type(), operands, instruction,
                   constraints, /*hasSideEffects=*/false)
      .getResult(0);
}

SmallVector<Value> mlir::tile::lowering::createPredicatedLoad(
    OpBuilder &builder, Location loc, Value ptr, Value pred,
    ArrayRef<Value> otherWords, int64_t wordBits) {
  int64_t words = otherWords.size();
  StringRef reg = wordConstraint(wordBits);
  // Outputs $0..$(words-1), then the address, the predicate, and the words
  // of `other` that the outputs start from.
  std::string text, constraints;
  llvm::raw_string_ostream asmText(text), constraintText(constraints);
  for (int64_t word = 0; word < words; ++word) {
    asmText << "mov.b" << wordBits << " $" << word << ", $" << words + 2 + word
            << ";\n\t";
    constraintText << "=" << reg << ",";
  }
  asmText << "@$" << words + 1 << " ld.global";
  if (words > 1)
    asmText << ".v" << words;
  asmText << ".b" << wordBits << " ";
  printOperandList(asmText, 0, words);
  asmText << ", [$" << words << "];";
  constraintText << "l,b";
  for (int64_t word = 0; word < words; ++word)
    constraintText << "," << reg;

  SmallVector<Value> operands{ptr, pred};
  llvm::append_range(operands, otherWords);
  Type wordType = builder.getIntegerType(wordBits);
  Type resultType = wordType;
  if (words > 1)
    resultType = LLVM::LLVMStructType::getLiteral(
        builder.getContext(), SmallVector<Type>(words, wordType));
  auto asmOp = createAsm(builder, loc, resultType, operands, text, constraints,
                         /*hasSideEffects=*/true);
  if (words == 1)
    return {asmOp.getResult(0)};
  SmallVector<Value> result;
  for (int64_t word = 0; word < words; ++word)
    result.push_back(LLVM::ExtractValueOp::create(
        builder, loc, asmOp.getResult(0), ArrayRef<int64_t>{word}));
  return result;
}

void mlir::tile::lowering::createPredicatedStore(OpBuilder &builder,
                                                 Location loc, Value ptr,
                                                 Value pred,
                                                 ArrayRef<Value> words,
                                                 int64_t wordBits) {
  int64_t count = words.size();
  std::string text, constraints = "b,l";
  llvm::raw_string_ostream asmText(text);
  asmText << "@$0 st.global";
  if (count > 1)
    asmText << ".v" << count;
  asmText << ".b" << wordBits << " [$1], ";
  printOperandList(asmText, 2, count);
  asmText << ";";
  for (int64_t word = 0; word < count; ++word)
    constraints += std::string(",") + wordConstraint(wordBits).str();
  SmallVector<Value> operands{pred, ptr};
  llvm::append_range(operands, words);
  createAsm(builder, loc, Type(), operands, text, constraints,
            /*hasSideEffects=*/true);
}
