//===- Debug.cpp - tile.print and tile.assert -----------------------------===//
//
// tile.print becomes gpu.printf (vprintf): a block's element is printed by
// the one thread that owns it (as stores choose it), with its index; a
// scalar, or a print without operands, by thread 0 of the program.
// tile.assert becomes cf.assert, which the NVVM lowering turns into a call
// of CUDA's __assertfail with the op's file, line and function.
//
//===----------------------------------------------------------------------===//

#include "Emitter.h"

#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::lowering;

/// `text` with printf's `%` escaped.
static std::string escapeFormat(StringRef text) {
  std::string escaped;
  for (char c : text) {
    escaped += c;
    if (c == '%')
      escaped += '%';
  }
  return escaped;
}

namespace {
/// One printed value: its conversion and the argument vprintf reads.
struct PrintedValue {
  std::string conversion;
  Value argument;
};
} // namespace

/// How `value` (an element of type `type`) is printed: integers as decimal
/// (signed or not) or zero-padded hexadecimal, floats as %f (or their bits in
/// hexadecimal), pointers as %p. vprintf reads int, long long and double, so
/// narrower values are widened.
static PrintedValue formatElement(OpBuilder &builder, Location loc, Value value,
                                  Type type, bool isSigned, bool hex) {
  Type i32 = builder.getI32Type(), i64 = builder.getI64Type();
  if (isa<PtrType, LLVM::LLVMPointerType>(type))
    return {"%p", LLVM::PtrToIntOp::create(builder, loc, i64, value)};
  unsigned bits = type.getIntOrFloatBitWidth();
  if (isa<FloatType>(type)) {
    if (!hex)
      return {"%f", bits == 64
                        ? value
                        : Value(arith::ExtFOp::create(
                              builder, loc, builder.getF64Type(), value))};
    value = arith::BitcastOp::create(builder, loc, builder.getIntegerType(bits),
                                     value);
    isSigned = false;
  }
  bool wide = bits > 32;
  Type argType = wide ? i64 : i32;
  if (bits < argType.getIntOrFloatBitWidth())
    value = isSigned && !hex
                ? Value(arith::ExtSIOp::create(builder, loc, argType, value))
                : Value(arith::ExtUIOp::create(builder, loc, argType, value));
  std::string length = wide ? "ll" : "";
  if (hex)
    return {"0x%0" + std::to_string(std::max(1u, bits / 4)) + length + "x",
            value};
  if (bits == 1)
    return {"%d", value};
  return {"%" + length + (isSigned ? "d" : "u"), value};
}

LogicalResult KernelEmitter::emitPrint(PrintOp op) {
  Location loc = op.getLoc();
  std::string prefix = escapeFormat(op.getPrefix());
  bool hex = op.getHex();
  SmallVector<Value> pid = {
      readAxisRegister<NVVM::BlockIdXOp, NVVM::BlockIdYOp, NVVM::BlockIdZOp>(
          loc, 0),
      readAxisRegister<NVVM::BlockIdXOp, NVVM::BlockIdYOp, NVVM::BlockIdZOp>(
          loc, 1),
      readAxisRegister<NVVM::BlockIdXOp, NVVM::BlockIdYOp, NVVM::BlockIdZOp>(
          loc, 2)};
  const std::string pidFormat = "pid (%u, %u, %u)";
  Value firstThread = arith::CmpIOp::create(
      builder, loc, arith::CmpIPredicate::eq, threadId(), constI32(loc, 0));
  auto printf = [&](const std::string &format, ArrayRef<Value> args) {
    SmallVector<Value> all(pid);
    llvm::append_range(all, args);
    gpu::PrintfOp::create(builder, loc, builder.getStringAttr(format + "\n"),
                          all);
  };

  if (op.getArgs().empty()) {
    guarded(loc, firstThread, [&] { printf(pidFormat + prefix, {}); });
    return success();
  }
  // 8-bit floats print as their value (the exact f32) or, in hex, their bits.
  auto printable = [&](Value value, Type type) -> std::pair<Value, Type> {
    if (!isFloat8Type(type))
      return {value, type};
    if (hex)
      return {value, builder.getI8Type()};
    Type f32 = builder.getF32Type();
    return {castElement(loc, value, type, f32, false, false, false), f32};
  };
  bool several = op.getArgs().size() > 1;
  for (auto [index, operandValue, signedness] :
       llvm::enumerate(op.getArgs(), op.getIsSigned())) {
    // (Named, not bound: the lambdas below capture them.)
    Value arg = operandValue;
    bool isSigned = signedness;
    std::string operand =
        several ? "(operand " + std::to_string(index) + ") " : "";
    auto block = dyn_cast<BlockType>(arg.getType());
    if (!block) {
      Value value = getScalar(arg);
      guarded(loc, firstThread, [&] {
        auto [element, type] = printable(value, arg.getType());
        PrintedValue printed =
            formatElement(builder, loc, element, type, isSigned, hex);
        printf(pidFormat + prefix + operand + printed.conversion,
               {printed.argument});
      });
      continue;
    }
    BlockLayout layout = getBlockLayout(block);
    SmallVector<Value> values = getRegisters(arg);
    std::string idx = " idx (";
    for (unsigned d = 0; d < block.getRank(); ++d)
      idx += d ? ", %u" : "%u";
    idx += ")";
    for (int64_t reg = 0; reg < layout.numRegisters(); ++reg) {
      // Not a copy in this thread's own registers, nor padding.
      std::optional<Value> writes = writePredicate(loc, layout, reg);
      if (!writes)
        continue;
      Value print = *writes;
      SmallVector<Value> coords = registerCoords(layout, reg);
      guarded(loc, print, [&] {
        auto [element, type] = printable(values[reg], block.getElementType());
        PrintedValue printed =
            formatElement(builder, loc, element, type, isSigned, hex);
        SmallVector<Value> args(coords);
        args.push_back(printed.argument);
        printf(pidFormat + idx + prefix + operand + printed.conversion, args);
      });
    }
  }
  return success();
}

LogicalResult KernelEmitter::emitAssert(AssertOp op) {
  Location loc = op.getLoc();
  Value condition = op.getCondition();
  Value holds;
  if (auto block = dyn_cast<BlockType>(condition.getType())) {
    // One check per thread: every element it holds, the padding passing.
    BlockLayout layout = getBlockLayout(block);
    SmallVector<Value> values = getRegisters(condition);
    for (int64_t reg = 0; reg < layout.numRegisters(); ++reg) {
      Value element = values[reg];
      if (Value valid = registerValid(layout, reg))
        element = arith::OrIOp::create(
            builder, loc, element,
            arith::XOrIOp::create(builder, loc, valid, constBool(loc, true)));
      holds = holds ? Value(arith::AndIOp::create(builder, loc, holds, element))
                    : element;
    }
  } else {
    holds = getScalar(condition);
  }
  emitAssertion(loc, holds, op.getMessage());
  return success();
}

void KernelEmitter::emitAssertion(Location loc, Value holds,
                                  StringRef message) {
  // __assertfail reports the file and line of the innermost location of an
  // inlined call, and the function a NameLoc names: the kernel.
  Location where = loc;
  while (auto callSite = dyn_cast<CallSiteLoc>(where))
    where = callSite.getCallee();
  if (isa<FileLineColLoc>(where))
    where = NameLoc::get(builder.getStringAttr(kernel.getName()), where);
  cf::AssertOp::create(builder, where, holds, message);
}
