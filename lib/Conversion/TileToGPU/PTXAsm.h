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

/// A pure f32 PTX instruction on f32 operands (`$0` is the result, `$1`...
/// the operands): no side effects, so LLVM may schedule, share and drop it
/// like any arithmetic.
Value createPureF32Asm(OpBuilder &builder, Location loc, StringRef instruction,
                       ValueRange operands);

/// `@pred ld.global[.vN].bW` of `words.size()` words of `wordBits` bits
/// (16, 32 or 64) from `ptr`, each output starting as the matching word of
/// `otherWords`. Returns the words.
SmallVector<Value> createPredicatedLoad(OpBuilder &builder, Location loc,
                                        Value ptr, Value pred,
                                        ArrayRef<Value> otherWords,
                                        int64_t wordBits);

/// `@pred st.global[.vN].bW [ptr], {words}`.
void createPredicatedStore(OpBuilder &builder, Location loc, Value ptr,
                           Value pred, ArrayRef<Value> words, int64_t wordBits);

/// A PTX instruction with no operands and side effects (a fence, a commit).
void createSideEffectAsm(OpBuilder &builder, Location loc, StringRef text);

/// `wgmma.mma_async.sync.aligned.m64n<n>k16.f32.<type>.<type>` of the
/// accumulators `acc` (f32, tied in and out) with shared-memory operands
/// described by `descA` and `descB` (i64); `useAcc` (i32) non-zero adds to
/// the accumulators, zero overwrites them. `transA`/`transB` select M-major A
/// and N-major B.
SmallVector<Value> createWarpGroupMma(OpBuilder &builder, Location loc,
                                      ArrayRef<Value> acc, Value descA,
                                      Value descB, Value useAcc, unsigned n,
                                      StringRef type, bool transA, bool transB);

/// `wgmma.wait_group.sync.aligned <pending>`, threading `acc` through it so
/// that nothing reads the accumulators before the wait.
SmallVector<Value> createWarpGroupWait(OpBuilder &builder, Location loc,
                                       ArrayRef<Value> acc, unsigned pending);

} // namespace mlir::tile::lowering

#endif // TILE_LIB_CONVERSION_TILETOGPU_PTXASM_H
