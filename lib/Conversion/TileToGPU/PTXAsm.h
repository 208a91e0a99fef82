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

} // namespace mlir::tile::lowering

#endif // TILE_LIB_CONVERSION_TILETOGPU_PTXASM_H
