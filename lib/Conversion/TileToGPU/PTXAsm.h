//===- PTXAsm.h - the PTX the lowering writes by hand -----------*- C++ -*-===//
//
// Every inline PTX instruction of the lowering is built here: predicated
// global loads and stores (one instruction that leaves `other` in place where
// the predicate is off, as Triton emits them) and pure f32 instructions that
// upstream has no op for (div.full.f32, ex2.approx.f32).
//
//===----------------------------------------------------------------------===//

#ifndef TILE_LIB_CONVERSION_TILETOGPU_PTXASM_H
#define TILE_LIB_CONVERSION_TILETOGPU_PTXASM_H

#include "mlir/IR/Builders.h"

namespace mlir::tile::lowering {

/// The user's PTX (tl.inline_asm_elementwise) as LLVM inline asm.
Value createUserAsm(OpBuilder &builder, Location loc, Type resultType,
                    ValueRange operands, StringRef text, StringRef constraints,
                    bool hasSideEffects);

/// A pure f32 PTX instruction on f32 operands (`$0` is the result, `$1`...
/// the operands): no side effects, so LLVM may schedule, share and drop it
/// like any arithmetic.
Value createPureF32Asm(OpBuilder &builder, Location loc, StringRef instruction,
                       ValueRange operands);

/// `value + addend` (i64) as a PTX `add.s64` that LLVM cannot see into:
/// LLVM turns an add of bits it knows to be disjoint into an `or`, and
/// ptxas keeps `add.s64`s of one uniform value in uniform registers
/// (UIADD3.64) where it computes `or.b64`s in vector registers.
Value createOpaqueAdd64(OpBuilder &builder, Location loc, Value value,
                        int64_t addend);

/// `@pred ld<space>[.vN].bW` of `words.size()` words of `wordBits` bits
/// (16, 32 or 64; 8: one byte, `.u8` into a 16-bit word) from `ptr`, each
/// output starting as the matching word of `otherWords`. `space` is
/// ".global", or with volatile or a cache hint (".global.cg"). Returns the
/// words.
SmallVector<Value> createPredicatedLoad(OpBuilder &builder, Location loc,
                                        Value ptr, Value pred,
                                        ArrayRef<Value> otherWords,
                                        int64_t wordBits,
                                        StringRef space = ".global");

/// `@pred st<space>[.vN].bW [ptr], {words}` (8-bit: `.u8` of 16-bit words).
void createPredicatedStore(OpBuilder &builder, Location loc, Value ptr,
                           Value pred, ArrayRef<Value> words, int64_t wordBits,
                           StringRef space = ".global");

/// `[@pred] <instruction> $0, [ptr], operands...;` for a PTX `atom`
/// (`instruction` is e.g. "atom.global.acq_rel.gpu.add.f32"): the old value,
/// 0 where `pred` (null: always on) is off. The operands and the result are
/// words of `bits` bits (16, 32 or 64).
Value createAtomic(OpBuilder &builder, Location loc, StringRef instruction,
                   Value ptr, Value pred, ArrayRef<Value> operands,
                   int64_t bits);

/// `cvt.rz` of a float to a narrower one (f32 -> f16/bf16, f64 -> f32):
/// Triton's fp_downcast_rounding="rtz".
Value createRoundTowardZero(OpBuilder &builder, Location loc, Value value,
                            Type to);

/// An 8-bit float's bits (i8; f8E5M2 if `e5m2`, else f8E4M3FN) as the f16
/// of the same value (`cvt.rn.f16x2.<type>x2`, sm_89 and later; exact).
Value createFloat8ToF16(OpBuilder &builder, Location loc, Value bits,
                        bool e5m2);

/// An f32 as the bits (i8) of the nearest 8-bit float, ties to even,
/// saturated to the largest finite value; NaN stays NaN
/// (`cvt.rn.satfinite.<type>x2.f32`, sm_89 and later).
Value createF32ToFloat8(OpBuilder &builder, Location loc, Value value,
                        bool e5m2);

/// A PTX instruction with no operands and side effects (a fence, a commit).
void createSideEffectAsm(OpBuilder &builder, Location loc, StringRef text);

/// `cp.async` of `bytes` (4, 8 or 16) from global `ptr` to the shared
/// address `sharedAddress` (i32) where `pred` holds, reading `sourceBytes`
/// (i32: `bytes`, or 0 to write zeros).
void createAsyncCopy(OpBuilder &builder, Location loc, Value sharedAddress,
                     Value ptr, Value pred, Value sourceBytes, int64_t bytes);

/// `mbarrier.init` of the barrier at shared address `barrier` (i32) for
/// one arrival per phase.
void createBarrierInit(OpBuilder &builder, Location loc, Value barrier);

/// One arrival on `barrier` that also expects `bytes` more bytes of
/// transactions (the TMA copies that complete on it) before its phase ends.
void createArriveExpectBytes(OpBuilder &builder, Location loc, Value barrier,
                             int64_t bytes);

/// Blocks until the phase of parity `phase` (i32, 0 or 1) of `barrier` is
/// complete (`mbarrier.try_wait.parity`, retried).
void createBarrierWait(OpBuilder &builder, Location loc, Value barrier,
                       Value phase);

/// A TMA copy (`cp.async.bulk.tensor`) of the box of the tensor map at
/// generic address `tensorMap` (the kernel parameter) at `coords` (i32,
/// innermost first) to shared address `sharedAddress` (i32), completing on
/// `barrier` with its bytes.
void createTensorCopy(OpBuilder &builder, Location loc, Value sharedAddress,
                      Value tensorMap, ArrayRef<Value> coords, Value barrier);

/// A TMA store (`cp.async.bulk.tensor`, bulk group completion) of the box
/// at shared address `sharedAddress` (i32) to the tensor map's tensor at
/// `coords` (i32, innermost first).
void createTensorStore(OpBuilder &builder, Location loc, Value tensorMap,
                       ArrayRef<Value> coords, Value sharedAddress);

/// What one wgmma multiplies: an m64 x `n` x `k` tile of A and B elements of
/// the PTX types `aType` and `bType` (f16 and bf16: k = 16; e4m3, e5m2 and
/// s8: k = 32; tf32, f32 bits: k = 8), into f32 accumulators (s8: s32 ones).
struct WarpGroupMmaShape {
  unsigned n, k;
  StringRef aType, bType;
  /// 8-bit and tf32 operands are read K-major only: the instruction has no
  /// transpose flags for them.
  bool hasTransposeFlags() const { return k == 16; }
  /// Integer products sum exactly in s32, without the scale immediates of
  /// the float forms.
  bool isInteger() const { return aType == "s8"; }
  StringRef accumulatorType() const { return isInteger() ? "s32" : "f32"; }
};

/// `ldmatrix.sync.aligned.m8n8.x<count>[.trans].shared.b16`: `count` (1, 2
/// or 4) 8x8 matrices of 16-bit elements, lane l giving at `address` (a
/// shared-memory byte address, i32) the 16 bytes of row l % 8 of matrix
/// l / 8; returns each matrix's 32-bit register of this lane (its row l / 4,
/// elements 2 (l % 4) and + 1; with `transposed`, of the transpose).
SmallVector<Value> createLdMatrix(OpBuilder &builder, Location loc,
                                  Value address, unsigned count,
                                  bool transposed);

/// `stmatrix.sync.aligned.m8n8.x<count>.shared.b16` (sm_90): the inverse of
/// createLdMatrix, `words` (1, 2 or 4 32-bit registers, two 16-bit elements
/// each) stored as the rows of `words.size()` 8x8 matrices, lane l giving at
/// `address` (i32) the 16 bytes of row l % 8 of matrix l / 8.
void createStMatrix(OpBuilder &builder, Location loc, Value address,
                    ArrayRef<Value> words);

/// `mma.sync.aligned.m16n8k<depth>.row.col.<sum>.<type>.<type>.<sum>`: the
/// accumulator fragment `acc` (4 registers, f32; s32 for s8) plus the A
/// fragment `a` (4 32-bit registers) times the B fragment `b` (2), one
/// 32-byte step of K deep (f16 and bf16: k16, tf32: k8, s8: k32).
SmallVector<Value> createMmaSync(OpBuilder &builder, Location loc,
                                 ArrayRef<Value> acc, ArrayRef<Value> a,
                                 ArrayRef<Value> b, StringRef type);

/// The PTX type wgmma and mma.sync name an operand element by (f16, bf16,
/// e4m3, e5m2; tf32 for f32; s8 for i8, which tile.dot reads as signed), or
/// an empty string for an element type the tensor cores do not take.
StringRef getTensorCoreType(Type element);

/// `wgmma.mma_async.sync.aligned.m64<n>k<k>.<f32|s32>.<aType>.<bType>` of
/// the accumulators `acc` (f32 or i32, tied in and out) with shared-memory
/// operands described by `descA` and `descB` (i64); `useAcc` (i32) non-zero
/// adds to the accumulators, zero overwrites them. A null `useAcc` overwrites
/// them without reading them (`acc` then gives only their types).
/// `transA`/`transB` select M-major A and N-major B (16-bit operands only).
SmallVector<Value> createWarpGroupMma(OpBuilder &builder, Location loc,
                                      ArrayRef<Value> acc, Value descA,
                                      Value descB, Value useAcc,
                                      const WarpGroupMmaShape &shape,
                                      bool transA, bool transB);

/// The same with A from registers: `aFragment` is the thread's four 32-bit
/// registers of the 64x16 A tile (two 16-bit elements each, in the order of
/// the accumulator fragment of a 64x16 tile).
SmallVector<Value>
createWarpGroupMmaFromRegisters(OpBuilder &builder, Location loc,
                                ArrayRef<Value> acc, ArrayRef<Value> aFragment,
                                Value descB, Value useAcc,
                                const WarpGroupMmaShape &shape, bool transB);

/// `wgmma.wait_group.sync.aligned <pending>`, threading `acc` through it so
/// that nothing reads the accumulators before the wait.
SmallVector<Value> createWarpGroupWait(OpBuilder &builder, Location loc,
                                       ArrayRef<Value> acc, unsigned pending);

} // namespace mlir::tile::lowering

#endif // TILE_LIB_CONVERSION_TILETOGPU_PTXASM_H
