//===- PTXAsm.cpp - the PTX the lowering writes by hand -------------------===//

#include "PTXAsm.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
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

Value mlir::tile::lowering::createUserAsm(OpBuilder &builder, Location loc,
                                          Type resultType, ValueRange operands,
                                          StringRef text, StringRef constraints,
                                          bool hasSideEffects) {
  return createAsm(builder, loc, resultType, operands, text, constraints,
                   hasSideEffects)
      .getResult(0);
}

/// PTX register constraint for a word of `bits` bits (a byte: 16 bits).
static StringRef wordConstraint(int64_t bits) {
  return bits == 64 ? "l" : bits == 32 ? "r" : "h";
}

/// The register width of a word of `bits` bits, and its type suffix.
static int64_t registerBits(int64_t bits) { return bits == 8 ? 16 : bits; }
static std::string typeSuffix(int64_t bits) {
  return bits == 8 ? ".u8" : ".b" + std::to_string(bits);
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

Value mlir::tile::lowering::createOpaqueAdd64(OpBuilder &builder, Location loc,
                                              Value value, int64_t addend) {
  return createAsm(builder, loc, builder.getI64Type(), ValueRange{value},
                   ("add.s64 $0, $1, " + Twine(addend) + ";").str(), "=l,l",
                   /*hasSideEffects=*/false)
      .getResult(0);
}

SmallVector<Value> mlir::tile::lowering::createPredicatedLoad(
    OpBuilder &builder, Location loc, Value ptr, Value pred,
    ArrayRef<Value> otherWords, int64_t wordBits, StringRef space) {
  int64_t words = otherWords.size();
  StringRef reg = wordConstraint(wordBits);
  // Outputs $0..$(words-1), then the address, the predicate, and the words
  // of `other` that the outputs start from.
  std::string text, constraints;
  llvm::raw_string_ostream asmText(text), constraintText(constraints);
  for (int64_t word = 0; word < words; ++word) {
    asmText << "mov.b" << registerBits(wordBits) << " $" << word << ", $"
            << words + 2 + word << ";\n\t";
    constraintText << "=" << reg << ",";
  }
  asmText << "@$" << words + 1 << " ld" << space;
  if (words > 1)
    asmText << ".v" << words;
  asmText << typeSuffix(wordBits) << " ";
  printOperandList(asmText, 0, words);
  asmText << ", [$" << words << "];";
  constraintText << "l,b";
  for (int64_t word = 0; word < words; ++word)
    constraintText << "," << reg;

  SmallVector<Value> operands{ptr, pred};
  llvm::append_range(operands, otherWords);
  Type wordType = builder.getIntegerType(registerBits(wordBits));
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

void mlir::tile::lowering::createPredicatedStore(
    OpBuilder &builder, Location loc, Value ptr, Value pred,
    ArrayRef<Value> words, int64_t wordBits, StringRef space) {
  int64_t count = words.size();
  std::string text, constraints = "b,l";
  llvm::raw_string_ostream asmText(text);
  asmText << "@$0 st" << space;
  if (count > 1)
    asmText << ".v" << count;
  asmText << typeSuffix(wordBits) << " [$1], ";
  printOperandList(asmText, 2, count);
  asmText << ";";
  for (int64_t word = 0; word < count; ++word)
    constraints += std::string(",") + wordConstraint(wordBits).str();
  SmallVector<Value> operands{pred, ptr};
  llvm::append_range(operands, words);
  createAsm(builder, loc, Type(), operands, text, constraints,
            /*hasSideEffects=*/true);
}

void mlir::tile::lowering::createAsyncCopy(OpBuilder &builder, Location loc,
                                           Value sharedAddress, Value ptr,
                                           Value pred, Value sourceBytes,
                                           int64_t bytes) {
  // 16-byte copies may bypass L1 (.cg), as Triton's do; smaller ones cannot.
  std::string text;
  llvm::raw_string_ostream asmText(text);
  asmText << "@$0 cp.async." << (bytes == 16 ? "cg" : "ca")
          << ".shared.global [$1], [$2], " << bytes << ", $3;";
  createAsm(builder, loc, Type(),
            ValueRange{pred, sharedAddress, ptr, sourceBytes}, text, "b,r,l,r",
            /*hasSideEffects=*/true);
}

void mlir::tile::lowering::createBarrierInit(OpBuilder &builder, Location loc,
                                             Value barrier) {
  createAsm(builder, loc, Type(), ValueRange{barrier},
            "mbarrier.init.shared::cta.b64 [$0], 1;", "r",
            /*hasSideEffects=*/true);
}

void mlir::tile::lowering::createArriveExpectBytes(OpBuilder &builder,
                                                   Location loc, Value barrier,
                                                   int64_t bytes) {
  std::string text = "mbarrier.arrive.expect_tx.shared::cta.b64 _, [$0], " +
                     std::to_string(bytes) + ";";
  createAsm(builder, loc, Type(), ValueRange{barrier}, text, "r",
            /*hasSideEffects=*/true);
}

void mlir::tile::lowering::createBarrierWait(OpBuilder &builder, Location loc,
                                             Value barrier, Value phase) {
  // try_wait may give up before the phase ends (a time limit): retried.
  // The labels are unique per asm statement (${:uid}).
  createAsm(builder, loc, Type(), ValueRange{barrier, phase},
            "{\n\t.reg .pred done;\n"
            "wait_${:uid}:\n\t"
            "mbarrier.try_wait.parity.shared::cta.b64 done, [$0], $1;\n\t"
            "@!done bra.uni wait_${:uid};\n}",
            "r,r", /*hasSideEffects=*/true);
}

/// The end of a TMA instruction's operands: `{coords}], [last];`, each an
/// i32 register operand after those already in `operands`.
static void appendTensorCoordinates(llvm::raw_ostream &text,
                                    std::string &constraints,
                                    SmallVectorImpl<Value> &operands,
                                    ArrayRef<Value> coords, Value last) {
  text << "{";
  for (auto [i, coord] : llvm::enumerate(coords)) {
    text << (i ? ", " : "") << "$" << operands.size();
    operands.push_back(coord);
    constraints += ",r";
  }
  text << "}], [$" << operands.size() << "];";
  operands.push_back(last);
  constraints += ",r";
}

void mlir::tile::lowering::createTensorCopy(OpBuilder &builder, Location loc,
                                            Value sharedAddress,
                                            Value tensorMap,
                                            ArrayRef<Value> coords,
                                            Value barrier) {
  std::string text, constraints = "r,l";
  llvm::raw_string_ostream asmText(text);
  asmText << "cp.async.bulk.tensor." << coords.size()
          << "d.shared::cluster.global.tile.mbarrier::complete_tx::bytes "
             "[$0], [$1, ";
  SmallVector<Value> operands{sharedAddress, tensorMap};
  appendTensorCoordinates(asmText, constraints, operands, coords, barrier);
  createAsm(builder, loc, Type(), operands, text, constraints,
            /*hasSideEffects=*/true);
}

void mlir::tile::lowering::createTensorStore(OpBuilder &builder, Location loc,
                                             Value tensorMap,
                                             ArrayRef<Value> coords,
                                             Value sharedAddress) {
  std::string text, constraints = "l";
  llvm::raw_string_ostream asmText(text);
  asmText << "cp.async.bulk.tensor." << coords.size()
          << "d.global.shared::cta.bulk_group [$0, ";
  SmallVector<Value> operands{tensorMap};
  appendTensorCoordinates(asmText, constraints, operands, coords,
                          sharedAddress);
  createAsm(builder, loc, Type(), operands, text, constraints,
            /*hasSideEffects=*/true);
}

Value mlir::tile::lowering::createAtomic(OpBuilder &builder, Location loc,
                                         StringRef instruction, Value ptr,
                                         Value pred, ArrayRef<Value> operands,
                                         int64_t bits) {
  StringRef reg = wordConstraint(bits);
  // The result $0, then the predicate (if any), the address, the operands.
  std::string text, constraints;
  llvm::raw_string_ostream asmText(text), constraintText(constraints);
  constraintText << "=" << reg;
  int64_t address = 1;
  if (pred) {
    asmText << "mov.b" << bits << " $0, 0;\n\t@$1 ";
    constraintText << ",b";
    address = 2;
  }
  asmText << instruction << " $0, [$" << address << "]";
  constraintText << ",l";
  for (size_t i = 0; i < operands.size(); ++i) {
    asmText << ", $" << address + 1 + i;
    constraintText << "," << reg;
  }
  asmText << ";";
  SmallVector<Value> asmOperands;
  if (pred)
    asmOperands.push_back(pred);
  asmOperands.push_back(ptr);
  llvm::append_range(asmOperands, operands);
  return createAsm(builder, loc, builder.getIntegerType(bits), asmOperands,
                   text, constraints, /*hasSideEffects=*/true)
      .getResult(0);
}

void mlir::tile::lowering::createSideEffectAsm(OpBuilder &builder, Location loc,
                                               StringRef text) {
  createAsm(builder, loc, Type(), ValueRange(), text, "",
            /*hasSideEffects=*/true);
}

/// The values of an asm op's results, one per accumulator.
static SmallVector<Value> unpackResults(OpBuilder &builder, Location loc,
                                        LLVM::InlineAsmOp asmOp, size_t count) {
  if (count == 1)
    return {asmOp.getResult(0)};
  SmallVector<Value> result;
  for (size_t i = 0; i < count; ++i)
    result.push_back(LLVM::ExtractValueOp::create(
        builder, loc, asmOp.getResult(0), ArrayRef<int64_t>{int64_t(i)}));
  return result;
}

static Type accumulatorStruct(OpBuilder &builder, ArrayRef<Value> acc) {
  SmallVector<Type> types;
  for (Value value : acc)
    types.push_back(value.getType());
  return types.size() == 1
             ? types[0]
             : LLVM::LLVMStructType::getLiteral(builder.getContext(), types);
}

/// The asm output constraint of a wgmma accumulator register: f32 or i32.
static StringRef accumulatorConstraint(Value acc) {
  return acc.getType().isInteger(32) ? "=r" : "=f";
}

StringRef mlir::tile::lowering::getTensorCoreType(Type element) {
  if (element.isF16())
    return "f16";
  if (element.isBF16())
    return "bf16";
  if (isa<Float8E4M3FNType>(element))
    return "e4m3";
  if (isa<Float8E5M2Type>(element))
    return "e5m2";
  if (element.isF32())
    return "tf32";
  if (element.isInteger(8))
    return "s8";
  return "";
}

/// One wgmma: A from a descriptor (`aFragment` empty) or from registers.
static SmallVector<Value>
warpGroupMma(OpBuilder &builder, Location loc, ArrayRef<Value> acc, Value descA,
             ArrayRef<Value> aFragment, Value descB, Value useAcc,
             const WarpGroupMmaShape &shape, bool transA, bool transB) {
  size_t count = acc.size();
  size_t aCount = aFragment.empty() ? 1 : aFragment.size();
  std::string text, constraints;
  llvm::raw_string_ostream asmText(text), constraintText(constraints);
  // Outputs $0..$(count-1); then A (a descriptor or registers), B's
  // descriptor, the scale-d flag, and the accumulators tied to the outputs.
  // Without `useAcc` the flag is 0 and the accumulators are outputs only:
  // nothing is moved into them between the fence and the instruction.
  size_t b = count + aCount, scaleD = b + 1;
  asmText << "{\n\t";
  if (useAcc)
    asmText << ".reg .pred p;\n\tsetp.ne.b32 p, $" << scaleD << ", 0;\n\t";
  asmText << "wgmma.mma_async.sync.aligned.m64n" << shape.n << "k" << shape.k
          << "." << shape.accumulatorType() << "." << shape.aType << "."
          << shape.bType << " ";
  printOperandList(asmText, 0, count);
  if (aFragment.empty()) {
    asmText << ", $" << count;
  } else {
    asmText << ", ";
    printOperandList(asmText, count, aCount);
  }
  asmText << ", $" << b << (useAcc ? ", p" : ", 0");
  if (!shape.isInteger())
    asmText << ", 1, 1";
  if (shape.hasTransposeFlags()) {
    if (aFragment.empty())
      asmText << ", " << (transA ? 1 : 0);
    asmText << ", " << (transB ? 1 : 0);
  }
  asmText << ";\n\t}";
  for (size_t i = 0; i < count; ++i)
    constraintText << accumulatorConstraint(acc[i]) << ",";
  for (size_t i = 0; i < aCount; ++i)
    constraintText << (aFragment.empty() ? "l," : "r,");
  constraintText << "l";
  SmallVector<Value> operands;
  if (aFragment.empty())
    operands.push_back(descA);
  else
    llvm::append_range(operands, aFragment);
  operands.push_back(descB);
  if (useAcc) {
    constraintText << ",r";
    for (size_t i = 0; i < count; ++i)
      constraintText << "," << i;
    operands.push_back(useAcc);
    llvm::append_range(operands, acc);
  }
  auto asmOp = createAsm(builder, loc, accumulatorStruct(builder, acc),
                         operands, text, constraints, /*hasSideEffects=*/true);
  return unpackResults(builder, loc, asmOp, count);
}

SmallVector<Value> mlir::tile::lowering::createWarpGroupMma(
    OpBuilder &builder, Location loc, ArrayRef<Value> acc, Value descA,
    Value descB, Value useAcc, const WarpGroupMmaShape &shape, bool transA,
    bool transB) {
  return warpGroupMma(builder, loc, acc, descA, {}, descB, useAcc, shape,
                      transA, transB);
}

SmallVector<Value> mlir::tile::lowering::createWarpGroupMmaFromRegisters(
    OpBuilder &builder, Location loc, ArrayRef<Value> acc,
    ArrayRef<Value> aFragment, Value descB, Value useAcc,
    const WarpGroupMmaShape &shape, bool transB) {
  return warpGroupMma(builder, loc, acc, Value(), aFragment, descB, useAcc,
                      shape, /*transA=*/false, transB);
}

SmallVector<Value> mlir::tile::lowering::createWarpGroupWait(
    OpBuilder &builder, Location loc, ArrayRef<Value> acc, unsigned pending) {
  size_t count = acc.size();
  std::string text =
      "wgmma.wait_group.sync.aligned " + std::to_string(pending) + ";";
  std::string constraints;
  llvm::raw_string_ostream constraintText(constraints);
  for (size_t i = 0; i < count; ++i)
    constraintText << (i ? "," : "") << accumulatorConstraint(acc[i]);
  for (size_t i = 0; i < count; ++i)
    constraintText << "," << i;
  auto asmOp = createAsm(builder, loc, accumulatorStruct(builder, acc), acc,
                         text, constraints, /*hasSideEffects=*/true);
  return unpackResults(builder, loc, asmOp, count);
}

// The conversions take and give pairs of 8-bit floats in 16 bits; one
// element uses the low byte (the other lane converts a copy).
Value mlir::tile::lowering::createFloat8ToF16(OpBuilder &builder, Location loc,
                                              Value bits, bool e5m2) {
  Value pair = arith::ExtUIOp::create(builder, loc, builder.getI16Type(), bits);
  std::string instruction =
      std::string("cvt.rn.f16x2.") + (e5m2 ? "e5m2x2" : "e4m3x2") + " $0, $1;";
  Value halves = createAsm(builder, loc, builder.getI32Type(), pair,
                           instruction, "=r,h", /*hasSideEffects=*/false)
                     .getResult(0);
  Value low =
      arith::TruncIOp::create(builder, loc, builder.getI16Type(), halves);
  return LLVM::BitcastOp::create(builder, loc, builder.getF16Type(), low);
}

Value mlir::tile::lowering::createF32ToFloat8(OpBuilder &builder, Location loc,
                                              Value value, bool e5m2) {
  std::string instruction = std::string("cvt.rn.satfinite.") +
                            (e5m2 ? "e5m2x2" : "e4m3x2") + ".f32 $0, $1, $1;";
  Value pair = createAsm(builder, loc, builder.getI16Type(), value, instruction,
                         "=h,f", /*hasSideEffects=*/false)
                   .getResult(0);
  return arith::TruncIOp::create(builder, loc, builder.getI8Type(), pair);
}

Value mlir::tile::lowering::createRoundTowardZero(OpBuilder &builder,
                                                  Location loc, Value value,
                                                  Type to) {
  Type from = value.getType();
  bool narrow = to.isF16() || to.isBF16();
  std::string instruction = std::string("cvt.rz.") +
                            (to.isF32()   ? "f32"
                             : to.isF16() ? "f16"
                                          : "bf16") +
                            (from.isF64() ? ".f64" : ".f32") + " $0, $1;";
  std::string constraints =
      std::string(narrow ? "=h" : "=f") + (from.isF64() ? ",d" : ",f");
  Value result = createAsm(builder, loc, narrow ? builder.getI16Type() : to,
                           value, instruction, constraints,
                           /*hasSideEffects=*/false)
                     .getResult(0);
  return narrow ? Value(LLVM::BitcastOp::create(builder, loc, to, result))
                : result;
}

SmallVector<Value> mlir::tile::lowering::createLdMatrix(OpBuilder &builder,
                                                        Location loc,
                                                        Value address,
                                                        unsigned count,
                                                        bool transposed) {
  std::string text, constraints;
  llvm::raw_string_ostream asmText(text), constraintText(constraints);
  asmText << "ldmatrix.sync.aligned.m8n8.x" << count
          << (transposed ? ".trans" : "") << ".shared.b16 ";
  printOperandList(asmText, 0, count);
  asmText << ", [$" << count << "];";
  for (unsigned i = 0; i < count; ++i)
    constraintText << "=r,";
  constraintText << "r";
  Type i32 = builder.getI32Type();
  Type resultType = LLVM::LLVMStructType::getLiteral(
      builder.getContext(), SmallVector<Type>(count, i32));
  // It reads shared memory: ordered with the stores and barriers around it.
  auto asmOp = createAsm(builder, loc, resultType, address, text, constraints,
                         /*hasSideEffects=*/true);
  SmallVector<Value> words;
  for (unsigned i = 0; i < count; ++i)
    words.push_back(LLVM::ExtractValueOp::create(
        builder, loc, asmOp.getResult(0), ArrayRef<int64_t>{int64_t(i)}));
  return words;
}

void mlir::tile::lowering::createStMatrix(OpBuilder &builder, Location loc,
                                          Value address,
                                          ArrayRef<Value> words) {
  std::string text, constraints = "r";
  llvm::raw_string_ostream asmText(text);
  asmText << "stmatrix.sync.aligned.m8n8.x" << words.size()
          << ".shared.b16 [$0], ";
  printOperandList(asmText, 1, words.size());
  asmText << ";";
  for (size_t i = 0; i < words.size(); ++i)
    constraints += ",r";
  SmallVector<Value> operands{address};
  llvm::append_range(operands, words);
  createAsm(builder, loc, Type(), operands, text, constraints,
            /*hasSideEffects=*/true);
}

SmallVector<Value>
mlir::tile::lowering::createMmaSync(OpBuilder &builder, Location loc,
                                    ArrayRef<Value> acc, ArrayRef<Value> a,
                                    ArrayRef<Value> b, StringRef type) {
  // Outputs $0..$3 tied to the accumulator inputs $10..$13; A $4..$7, B
  // $8..$9. One step is 32 bytes of K.
  unsigned depth = type == "tf32" ? 8 : type == "s8" ? 32 : 16;
  StringRef sum = type == "s8" ? "s32" : "f32";
  std::string text =
      ("mma.sync.aligned.m16n8k" + Twine(depth) + ".row.col." + sum + "." +
       type + "." + type + "." + sum +
       " {$0, $1, $2, $3}, {$4, $5, $6, $7}, {$8, $9}, {$10, $11, $12, $13};")
          .str();
  std::string constraints;
  for (Value value : acc)
    constraints += (accumulatorConstraint(value) + ",").str();
  constraints += "r,r,r,r,r,r,0,1,2,3";
  SmallVector<Value> operands(a);
  llvm::append_range(operands, b);
  llvm::append_range(operands, acc);
  auto asmOp = createAsm(builder, loc, accumulatorStruct(builder, acc),
                         operands, text, constraints, /*hasSideEffects=*/false);
  SmallVector<Value> result;
  for (size_t i = 0; i < acc.size(); ++i)
    result.push_back(LLVM::ExtractValueOp::create(
        builder, loc, asmOp.getResult(0), ArrayRef<int64_t>{int64_t(i)}));
  return result;
}
