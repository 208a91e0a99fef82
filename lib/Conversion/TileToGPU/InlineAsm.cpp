//===- InlineAsm.cpp - tile.inline_asm (tl.inline_asm_elementwise) --------===//
//
// The user's PTX runs once per `pack` registers of the thread: the operands
// are those registers of each argument, elements narrower than 32 bits
// packed into registers of up to 32 bits (`pack` 4 of i8: one b32), and the
// results come back packed the same way, as Triton passes them.
//
//===----------------------------------------------------------------------===//

#include "Emitter.h"
#include "PTXAsm.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::lowering;

/// Elements of `type` per asm operand when `pack` travel together: as many
/// as fit in 32 bits (at most `pack`), one for 32-bit and wider types.
static int64_t elementsPerOperand(Type type, int64_t pack) {
  int64_t bits = type.getIntOrFloatBitWidth();
  return bits >= 32 ? 1 : std::min<int64_t>(pack, 32 / bits);
}

/// The type of one asm operand holding `count` elements of `type`.
static Type operandType(OpBuilder &builder, Type type, int64_t count) {
  if (count == 1)
    return type;
  return builder.getIntegerType(count * type.getIntOrFloatBitWidth());
}

/// Checks the asm text and constraints against the `numOutputs` output and
/// `numInputs` input operands each instance of the asm gets: LLVM's asm
/// printer aborts the process on a `$N` past them or on a `$` it cannot
/// read, so they are errors here. The text may use `$N`, `${N}` and `$$` (a
/// dollar sign); the constraints are one entry per operand (outputs, `=`,
/// first), clobbers (`~{...}`) aside.
static LogicalResult checkAsmOperands(InlineAsmOp op, int64_t numOutputs,
                                      int64_t numInputs) {
  int64_t numOperands = numOutputs + numInputs;
  SmallVector<StringRef> entries;
  op.getConstraints().split(entries, ',');
  int64_t outputs = 0, inputs = 0;
  for (StringRef entry : entries) {
    entry = entry.trim();
    if (entry.starts_with("~"))
      continue;
    (entry.starts_with("=") ? outputs : inputs) += 1;
  }
  if (outputs != numOutputs || inputs != numInputs)
    return op.emitOpError()
           << "constraints \"" << op.getConstraints() << "\" give " << outputs
           << " outputs and " << inputs << " inputs, but each instance of the "
           << "asm (pack " << op.getPack() << ") has " << numOutputs
           << " output and " << numInputs << " input operands";
  StringRef text = op.getAsmString();
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '$')
      continue;
    StringRef rest = text.drop_front(i + 1);
    if (rest.starts_with("$")) {
      ++i;
      continue;
    }
    bool braced = rest.consume_front("{");
    size_t digits = rest.find_first_not_of("0123456789");
    StringRef number = rest.take_front(digits);
    unsigned index;
    if (number.empty() || number.getAsInteger(10, index) ||
        (braced && !rest.drop_front(number.size()).starts_with("}")))
      return op.emitOpError()
             << "asm text has a '$' at offset " << i
             << " that is none of $N, ${N} and $$ (a dollar sign)";
    if (index >= numOperands)
      return op.emitOpError()
             << "asm text refers to $" << index << ", but each instance "
             << "of the asm (pack " << op.getPack() << ") has " << numOperands
             << " operands, $0 to $" << numOperands - 1;
    i += number.size() + (braced ? 2 : 0);
  }
  return success();
}

LogicalResult KernelEmitter::emitInlineAsm(InlineAsmOp op) {
  Location loc = op.getLoc();
  int64_t pack = op.getPack();
  auto elementOf = [](Value value) { return getElementTypeOrSelf(value); };
  for (Value value : llvm::concat<Value>(op.getArgs(), op.getResults())) {
    Type element = elementOf(value);
    int64_t per = elementsPerOperand(element, pack);
    if (pack % per != 0)
      return op.emitOpError()
             << "pack " << pack << " does not split into operands of " << per
             << " " << element << " elements";
  }

  std::optional<BlockLayout> layout;
  FailureOr<SmallVector<SmallVector<Value>>> args =
      packedOperands(op, op.getArgs(), op.getResults().front(), pack, layout);
  if (failed(args))
    return failure();
  int64_t elements = layout ? layout->numRegisters() : 1;

  // The asm's result: one operand, or a struct of all output operands.
  SmallVector<Type> outputTypes;
  for (Value result : op.getResults()) {
    Type element = elementOf(result);
    int64_t per = elementsPerOperand(element, pack);
    for (int64_t i = 0; i < pack / per; ++i)
      outputTypes.push_back(operandType(builder, element, per));
  }
  int64_t numInputs = 0;
  for (Value arg : op.getArgs())
    numInputs += pack / elementsPerOperand(elementOf(arg), pack);
  if (failed(checkAsmOperands(op, outputTypes.size(), numInputs)))
    return failure();
  Type asmType =
      outputTypes.size() == 1
          ? outputTypes.front()
          : LLVM::LLVMStructType::getLiteral(builder.getContext(), outputTypes);

  SmallVector<SmallVector<Value>> results(op.getNumResults());
  for (int64_t first = 0; first < elements; first += pack) {
    SmallVector<Value> operands;
    for (auto [arg, values] : llvm::zip(op.getArgs(), *args)) {
      Type element = elementOf(arg);
      int64_t per = elementsPerOperand(element, pack);
      for (int64_t start = first; start < first + pack; start += per) {
        if (per == 1) {
          operands.push_back(values[start]);
          continue;
        }
        Value vector = LLVM::UndefOp::create(builder, loc,
                                             VectorType::get({per}, element));
        for (int64_t i = 0; i < per; ++i)
          vector = LLVM::InsertElementOp::create(
              builder, loc, vector, values[start + i], constI32(loc, i));
        operands.push_back(LLVM::BitcastOp::create(
            builder, loc, operandType(builder, element, per), vector));
      }
    }
    Value output =
        createUserAsm(builder, loc, asmType, operands, op.getAsmString(),
                      op.getConstraints(), /*hasSideEffects=*/!op.getPure());
    unsigned field = 0;
    for (auto [result, values] : llvm::zip(op.getResults(), results)) {
      Type element = elementOf(result);
      int64_t per = elementsPerOperand(element, pack);
      for (int64_t i = 0; i < pack / per; ++i, ++field) {
        Value word = outputTypes.size() == 1
                         ? output
                         : Value(LLVM::ExtractValueOp::create(builder, loc,
                                                              output, field));
        if (per == 1) {
          values.push_back(word);
          continue;
        }
        Value vector = LLVM::BitcastOp::create(
            builder, loc, VectorType::get({per}, element), word);
        for (int64_t j = 0; j < per; ++j)
          values.push_back(LLVM::ExtractElementOp::create(builder, loc, vector,
                                                          constI32(loc, j)));
      }
    }
  }
  bindPackedResults(op.getResults(), results, layout);
  return success();
}

FailureOr<SmallVector<SmallVector<Value>>>
KernelEmitter::packedOperands(Operation *op, ValueRange args, Value result,
                              int64_t pack,
                              std::optional<BlockLayout> &layout) {
  SmallVector<SmallVector<Value>> registersOfArgs;
  auto block = dyn_cast<BlockType>(result.getType());
  if (!block) {
    for (Value arg : args)
      registersOfArgs.push_back({getScalar(arg)});
    return registersOfArgs;
  }
  layout = getBlockLayout(block);
  for (Value arg : args) {
    std::optional<SmallVector<Value>> in = registersIn(arg, *layout);
    if (!in)
      return op->emitOpError() << "has operands in another layout than its "
                                  "results";
    registersOfArgs.push_back(std::move(*in));
  }
  if (layout->numRegisters() % pack != 0)
    return op->emitOpError()
           << "pack " << pack << " does not divide the "
           << layout->numRegisters() << " elements a thread holds";
  return registersOfArgs;
}

void KernelEmitter::bindPackedResults(
    ValueRange results, SmallVector<SmallVector<Value>> &values,
    const std::optional<BlockLayout> &layout) {
  for (auto [result, resultValues] : llvm::zip(results, values)) {
    if (layout)
      registers[result] = std::move(resultValues);
    else
      scalars.map(result, resultValues.front());
  }
}
