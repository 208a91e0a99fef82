//===- Elementwise.cpp - per-element arithmetic ---------------------------===//

#include "Emitter.h"
#include "PTXAsm.h"

#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::lowering;

//===----------------------------------------------------------------------===//
// Scalar arithmetic
//===----------------------------------------------------------------------===//

Value KernelEmitter::castScalar(Location loc, Value value, Type to,
                                bool unsignedSrc, bool unsignedDst,
                                bool towardZero) {
  Type from = value.getType();
  if (from == to)
    return value;
  auto fromInt = dyn_cast<IntegerType>(from);
  auto toInt = dyn_cast<IntegerType>(to);
  bool zeroExtend = unsignedSrc || (fromInt && fromInt.getWidth() == 1);
  if (fromInt && toInt) {
    if (toInt.getWidth() == 1)
      return arith::CmpIOp::create(
          builder, loc, arith::CmpIPredicate::ne, value,
          arith::ConstantOp::create(builder, loc,
                                    builder.getIntegerAttr(from, 0)));
    if (toInt.getWidth() > fromInt.getWidth())
      return zeroExtend
                 ? Value(arith::ExtUIOp::create(builder, loc, to, value))
                 : Value(arith::ExtSIOp::create(builder, loc, to, value));
    return arith::TruncIOp::create(builder, loc, to, value);
  }
  if (fromInt) {
    return zeroExtend ? Value(arith::UIToFPOp::create(builder, loc, to, value))
                      : Value(arith::SIToFPOp::create(builder, loc, to, value));
  }
  if (toInt) {
    if (toInt.getWidth() == 1) {
      Value zero = arith::ConstantOp::create(builder, loc,
                                             builder.getFloatAttr(from, 0.0));
      return arith::CmpFOp::create(builder, loc, arith::CmpFPredicate::UNE,
                                   value, zero);
    }
    return unsignedDst
               ? Value(arith::FPToUIOp::create(builder, loc, to, value))
               : Value(arith::FPToSIOp::create(builder, loc, to, value));
  }
  unsigned fromWidth = from.getIntOrFloatBitWidth();
  unsigned toWidth = to.getIntOrFloatBitWidth();
  if (towardZero && toWidth < fromWidth) {
    // cvt.rz has f64 -> f32 and f32 -> f16/bf16 forms; truncations compose.
    if (from.isF64() && toWidth < 32)
      value = createRoundTowardZero(builder, loc, value, builder.getF32Type());
    return createRoundTowardZero(builder, loc, value, to);
  }
  if (fromWidth == toWidth) { // f16 <-> bf16 through f32
    Value wide =
        arith::ExtFOp::create(builder, loc, builder.getF32Type(), value);
    return arith::TruncFOp::create(builder, loc, to, wide);
  }
  if (toWidth > fromWidth)
    return arith::ExtFOp::create(builder, loc, to, value);
  return arith::TruncFOp::create(builder, loc, to, value);
}

Value KernelEmitter::castElement(Location loc, Value value, Type from, Type to,
                                 bool unsignedSrc, bool unsignedDst,
                                 bool towardZero) {
  if (!isFloat8Type(from) && !isFloat8Type(to))
    return castScalar(loc, value, to, unsignedSrc, unsignedDst, towardZero);
  if (from == to)
    return value;
  Type f16 = builder.getF16Type(), f32 = builder.getF32Type();
  // From an 8-bit float: its f16 is exact, and so is every wider float of it.
  if (isFloat8Type(from)) {
    value = createFloat8ToF16(builder, loc, value, isa<Float8E5M2Type>(from));
    if (!isFloat8Type(to))
      return castScalar(loc, value, to, /*unsignedSrc=*/false);
    from = f16;
  }
  bool e5m2 = isa<Float8E5M2Type>(to);
  if (towardZero) {
    // f8E5M2 is f16 with 8 fewer fraction bits: truncating an f16 toward
    // zero is keeping its high byte (the verifier allows rtz to it only).
    Value half = from.isF16() ? value
                              : castScalar(loc, value, f16, false, false,
                                           /*towardZero=*/true);
    Value bits =
        LLVM::BitcastOp::create(builder, loc, builder.getI16Type(), half);
    Value high = arith::ShRUIOp::create(
        builder, loc, bits,
        arith::ConstantOp::create(builder, loc, builder.getI16IntegerAttr(8)));
    return arith::TruncIOp::create(builder, loc, builder.getI8Type(), high);
  }
  // f16 and bf16 widen to f32 exactly; an f64 rounds to f32 first.
  Value single = from.isF32() ? value : castScalar(loc, value, f32, false);
  return createF32ToFloat8(builder, loc, single, e5m2);
}

Value KernelEmitter::materializeConstant(Location loc, TypedAttr attr) {
  if (auto value = dyn_cast<FloatAttr>(attr);
      value && isFloat8Type(value.getType()))
    attr = builder.getIntegerAttr(builder.getI8Type(),
                                  value.getValue().bitcastToAPInt());
  return arith::ConstantOp::create(builder, loc, attr);
}

/// Emits the scalar form of an elementwise tile op.
Value KernelEmitter::emitScalarOp(Operation *op, ValueRange operands,
                                  Location loc) {
  Type resultType =
      convertElementType(getElementTypeOrSelf(op->getResult(0).getType()));
  auto binary = [&](auto tag) -> Value {
    using OpTy = decltype(tag);
    return OpTy::create(builder, loc, operands[0], operands[1]);
  };
  // A multiply feeding an add may fuse into one fma, as Triton's default
  // (enable_fp_fusion) allows. Without the flag the NVPTX backend rounds
  // each (mul.rn, add.rn), so ptxas cannot fuse them either.
  auto contractible = [&](auto tag) -> Value {
    using OpTy = decltype(tag);
    auto op = OpTy::create(builder, loc, operands[0], operands[1]);
    if (fpFusion)
      op.setFastmath(arith::FastMathFlags::contract);
    return op;
  };
  // libdevice has f32 and f64 versions only: compute f16/bf16 in f32.
  auto transcendental = [&](auto tag) -> Value {
    using OpTy = decltype(tag);
    Type type = operands[0].getType();
    bool narrow = type.isF16() || type.isBF16();
    SmallVector<Value> wide;
    for (Value operand : operands)
      wide.push_back(narrow ? Value(arith::ExtFOp::create(
                                  builder, loc, builder.getF32Type(), operand))
                            : operand);
    Value result = OpTy::create(builder, loc, wide).getResult();
    return narrow ? Value(arith::TruncFOp::create(builder, loc, type, result))
                  : result;
  };
  return llvm::TypeSwitch<Operation *, Value>(op)
      .Case<AddIOp>([&](auto) { return binary(arith::AddIOp()); })
      .Case<AddFOp>([&](auto) { return contractible(arith::AddFOp()); })
      .Case<SubIOp>([&](auto) { return binary(arith::SubIOp()); })
      .Case<SubFOp>([&](auto) { return contractible(arith::SubFOp()); })
      .Case<MulIOp>([&](auto) { return binary(arith::MulIOp()); })
      .Case<MulFOp>([&](auto) { return contractible(arith::MulFOp()); })
      .Case<DivSIOp>([&](auto) { return binary(arith::DivSIOp()); })
      .Case<DivUIOp>([&](auto) { return binary(arith::DivUIOp()); })
      .Case<DivFOp>([&](auto) -> Value {
        // f32 division is div.full.f32 (at most 2 ulp), as Triton's `/`;
        // the IEEE-rounded div.rn.f32 is a long instruction sequence.
        if (resultType.isF32())
          return createPureF32Asm(builder, loc, "div.full.f32 $0, $1, $2;",
                                  operands);
        return binary(arith::DivFOp());
      })
      .Case<RemSIOp>([&](auto) { return binary(arith::RemSIOp()); })
      .Case<RemUIOp>([&](auto) { return binary(arith::RemUIOp()); })
      .Case<RemFOp>([&](auto) { return transcendental(arith::RemFOp()); })
      .Case<MinSIOp>([&](auto) { return binary(arith::MinSIOp()); })
      .Case<MaxSIOp>([&](auto) { return binary(arith::MaxSIOp()); })
      .Case<MinUIOp>([&](auto) { return binary(arith::MinUIOp()); })
      .Case<MaxUIOp>([&](auto) { return binary(arith::MaxUIOp()); })
      .Case<MinimumFOp>([&](auto) { return binary(arith::MinimumFOp()); })
      .Case<MaximumFOp>([&](auto) { return binary(arith::MaximumFOp()); })
      // fma, minnum and maxnum as LLVM's own ops: the GPU-to-NVVM
      // patterns would call libdevice (__nv_fmaf, ...), whose versions flush
      // subnormals under reflect-ftz, where Triton's ops never do.
      .Case<MinNumFOp>([&](auto) { return binary(LLVM::MinNumOp()); })
      .Case<MaxNumFOp>([&](auto) { return binary(LLVM::MaxNumOp()); })
      .Case<AndIOp>([&](auto) { return binary(arith::AndIOp()); })
      .Case<OrIOp>([&](auto) { return binary(arith::OrIOp()); })
      .Case<XOrIOp>([&](auto) { return binary(arith::XOrIOp()); })
      .Case<ShLIOp>([&](auto) { return binary(arith::ShLIOp()); })
      .Case<ShRSIOp>([&](auto) { return binary(arith::ShRSIOp()); })
      .Case<ShRUIOp>([&](auto) { return binary(arith::ShRUIOp()); })
      .Case<PowFOp>([&](auto) { return transcendental(math::PowFOp()); })
      .Case<NegFOp>([&](auto) -> Value {
        return arith::NegFOp::create(builder, loc, operands[0]);
      })
      .Case<NotIOp>([&](auto) -> Value {
        Value ones = arith::ConstantOp::create(
            builder, loc, builder.getIntegerAttr(resultType, -1));
        return arith::XOrIOp::create(builder, loc, operands[0], ones);
      })
      .Case<AbsIOp>([&](auto) -> Value {
        // max(x, -x): the NVVM lowering has no math.absi.
        Value zero = arith::ConstantOp::create(
            builder, loc, builder.getIntegerAttr(resultType, 0));
        Value negated = arith::SubIOp::create(builder, loc, zero, operands[0]);
        return arith::MaxSIOp::create(builder, loc, operands[0], negated);
      })
      .Case<AbsFOp>([&](auto) -> Value {
        // |x| as a sign-bit clear, as Triton emits it: GPU-to-NVVM takes
        // math.absf to libdevice's __nv_fabsf (ftz under reflect-ftz) and
        // refuses llvm.intr.fabs.
        Value x = operands[0];
        unsigned width = x.getType().getIntOrFloatBitWidth();
        Type bits = builder.getIntegerType(width);
        Value mask = arith::ConstantOp::create(
            builder, loc,
            builder.getIntegerAttr(bits, APInt::getSignedMaxValue(width)));
        Value cleared = arith::AndIOp::create(
            builder, loc, arith::BitcastOp::create(builder, loc, bits, x),
            mask);
        return arith::BitcastOp::create(builder, loc, x.getType(), cleared);
      })
      .Case<ExpOp>([&](auto) -> Value {
        // exp(x) = 2^(x log2 e) with the hardware's ex2.approx, as Triton
        // computes f32 exp.
        if (!resultType.isF32())
          return transcendental(math::ExpOp());
        Value log2e = arith::ConstantOp::create(
            builder, loc, builder.getF32FloatAttr(1.4426950408889634));
        Value scaled = arith::MulFOp::create(builder, loc, operands[0], log2e);
        return createPureF32Asm(builder, loc, "ex2.approx.f32 $0, $1;", scaled);
      })
      .Case<Exp2Op>([&](auto) { return transcendental(math::Exp2Op()); })
      .Case<LogOp>([&](auto) { return transcendental(math::LogOp()); })
      .Case<Log2Op>([&](auto) { return transcendental(math::Log2Op()); })
      .Case<SqrtOp>([&](auto) { return transcendental(math::SqrtOp()); })
      .Case<RsqrtOp>([&](auto) { return transcendental(math::RsqrtOp()); })
      .Case<FloorOp>([&](auto) { return transcendental(math::FloorOp()); })
      .Case<CeilOp>([&](auto) { return transcendental(math::CeilOp()); })
      .Case<SinOp>([&](auto) { return transcendental(math::SinOp()); })
      .Case<CosOp>([&](auto) { return transcendental(math::CosOp()); })
      .Case<FmaOp>([&](auto) -> Value {
        return LLVM::FMAOp::create(builder, loc, operands[0], operands[1],
                                   operands[2]);
      })
      .Case<CmpIOp>([&](CmpIOp cmp) -> Value {
        return arith::CmpIOp::create(builder, loc, cmp.getPredicate(),
                                     operands[0], operands[1]);
      })
      .Case<CmpFOp>([&](CmpFOp cmp) -> Value {
        return arith::CmpFOp::create(builder, loc, cmp.getPredicate(),
                                     operands[0], operands[1]);
      })
      .Case<SelectOp>([&](auto) -> Value {
        return arith::SelectOp::create(builder, loc, operands[0], operands[1],
                                       operands[2]);
      })
      .Case<CastOp>([&](CastOp cast) -> Value {
        return castElement(
            loc, operands[0], getElementTypeOrSelf(cast.getSrc().getType()),
            getElementTypeOrSelf(cast.getType()), cast.getUnsignedSrc(),
            cast.getUnsignedDst(), cast.getRtz());
      })
      .Case<AddPtrOp>([&](AddPtrOp addptr) -> Value {
        Type pointee = cast<PtrType>(getElementTypeOrSelf(addptr.getType()))
                           .getPointeeType();
        return LLVM::GEPOp::create(builder, loc, resultType,
                                   storageType(pointee), operands[0],
                                   ValueRange{operands[1]});
      })
      .Case<HintOp>([&](auto) { return operands[0]; })
      .Default([&](Operation *other) -> Value {
        return emitBitsOrCallOp(other, operands, loc);
      });
}

//===----------------------------------------------------------------------===//
// Blocks
//===----------------------------------------------------------------------===//

/// Whether `op` computes on 8-bit floats rather than only moving them: the
/// verifier keeps them out of tile's arithmetic, but not out of a combine
/// function's or an external call's.
static bool computesOnFloat8(Operation *op) {
  if (isa<CastOp, BitcastOp, SelectOp, SplatOp, arith::SelectOp,
          arith::ConstantOp>(op))
    return false;
  auto isFloat8 = [](Type type) {
    return isFloat8Type(getElementTypeOrSelf(type));
  };
  return llvm::any_of(op->getOperandTypes(), isFloat8) ||
         llvm::any_of(op->getResultTypes(), isFloat8);
}

LogicalResult mlir::tile::lowering::rejectFloat8Arithmetic(Operation *op) {
  if (!computesOnFloat8(op))
    return success();
  return op->emitOpError()
         << "computes on 8-bit floats; they are loaded, stored, selected and "
            "cast only: convert them to f16 or f32 first";
}

LogicalResult KernelEmitter::emitElementwise(Operation *op) {
  Location loc = op->getLoc();
  if (failed(rejectFloat8Arithmetic(op)))
    return failure();
  if (op->getNumResults() == 1 && isa<BlockType>(op->getResult(0).getType())) {
    // Operands and result share one layout (the layout pass sees to it), so
    // register r of each operand feeds register r of the result.
    auto type = cast<BlockType>(op->getResult(0).getType());
    BlockLayout layout = getBlockLayout(type);
    SmallVector<SmallVector<Value>> operandRegisters;
    for (Value operand : op->getOperands()) {
      if (!isa<BlockType>(operand.getType()))
        return op->emitOpError() << "mixes scalars and blocks";
      std::optional<SmallVector<Value>> values = registersIn(operand, layout);
      if (!values)
        return op->emitOpError()
               << "has an operand in another layout than its result";
      operandRegisters.push_back(std::move(*values));
    }
    bool lowered = true;
    SmallVector<Value> result =
        perRun(op->getResult(0), layout, [&](int64_t reg) -> Value {
          SmallVector<Value> operands;
          for (auto &operand : operandRegisters)
            operands.push_back(operand[reg]);
          Value value = emitScalarOp(op, operands, loc);
          lowered &= bool(value);
          return value;
        });
    if (!lowered)
      return op->emitOpError() << "cannot be lowered to the GPU yet";
    registers[op->getResult(0)] = std::move(result);
    return success();
  }
  // Scalar tile ops: addptr, hint (an identity), casts, bit and pointer
  // casts, external calls.
  if (isa<AddPtrOp, HintOp, CastOp, BitcastOp, IntToPtrOp, PtrToIntOp,
          ExternElementwiseOp>(op)) {
    SmallVector<Value> operands;
    for (Value operand : op->getOperands())
      operands.push_back(getScalar(operand));
    Value value = emitScalarOp(op, operands, loc);
    if (!value)
      return op->emitOpError() << "cannot be lowered to the GPU yet";
    scalars.map(op->getResult(0), value);
    return success();
  }
  return op->emitOpError() << "cannot be lowered to the GPU yet";
}

LogicalResult KernelEmitter::emitDenseConstant(ConstantOp op) {
  // Non-splat constants: each thread picks its elements from the attribute
  // with a chain of selects over the linear index.
  Location loc = op.getLoc();
  auto type = cast<BlockType>(op.getType());
  BlockLayout layout = getBlockLayout(type);
  auto elements = cast<DenseElementsAttr>(op.getValue());
  SmallVector<Attribute> values(elements.getValues<Attribute>());
  if (values.size() > 4096)
    return op->emitOpError() << "non-splat constant with " << values.size()
                             << " elements is too large to lower";
  SmallVector<Value> result;
  for (int64_t reg = 0; reg < layout.numRegisters(); ++reg) {
    Value linear = linearIndex(loc, layout.shape, registerCoords(layout, reg));
    Value picked = materializeConstant(loc, cast<TypedAttr>(values[0]));
    for (size_t i = 1; i < values.size(); ++i) {
      Value here = arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::eq,
                                         linear, constI32(loc, i));
      Value candidate = materializeConstant(loc, cast<TypedAttr>(values[i]));
      picked = arith::SelectOp::create(builder, loc, here, candidate, picked);
    }
    result.push_back(picked);
  }
  registers[op.getResult()] = std::move(result);
  return success();
}
