//===- BitsAndCalls.cpp - bit casts, pointer casts, external calls --------===//
//
// The per-element code of tile.bitcast, tile.int_to_ptr, tile.ptr_to_int and
// tile.extern_elementwise (a call of a libdevice function declared in the GPU
// module; libdevice is linked when the module is serialized).
//
//===----------------------------------------------------------------------===//

#include "Emitter.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::lowering;

Value KernelEmitter::emitBitsOrCallOp(Operation *op, ValueRange operands,
                                      Location loc) {
  Type resultType =
      convertElementType(getElementTypeOrSelf(op->getResult(0).getType()));
  if (isa<BitcastOp>(op)) {
    if (operands[0].getType() == resultType) // pointer to pointer: opaque
      return operands[0];
    return LLVM::BitcastOp::create(builder, loc, resultType, operands[0]);
  }
  if (isa<IntToPtrOp>(op))
    return LLVM::IntToPtrOp::create(builder, loc, resultType, operands[0]);
  if (isa<PtrToIntOp>(op))
    return LLVM::PtrToIntOp::create(builder, loc, resultType, operands[0]);
  auto call = dyn_cast<ExternElementwiseOp>(op);
  if (!call)
    return {};
  auto module = builder.getInsertionBlock()
                    ->getParentOp()
                    ->getParentOfType<gpu::GPUModuleOp>();
  SmallVector<Type> argTypes;
  for (Value operand : operands)
    argTypes.push_back(operand.getType());
  auto fnType = LLVM::LLVMFunctionType::get(resultType, argTypes);
  auto fn = module.lookupSymbol<LLVM::LLVMFuncOp>(call.getSymbol());
  if (!fn) {
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToStart(module.getBody());
    fn = LLVM::LLVMFuncOp::create(builder, loc, call.getSymbol(), fnType);
  } else if (fn.getFunctionType() != fnType) {
    call.emitOpError() << "calls '" << call.getSymbol() << "' as " << fnType
                       << ", but it was called as " << fn.getFunctionType()
                       << " before";
    return {};
  }
  return LLVM::CallOp::create(builder, loc, fn, operands).getResult();
}
