//===- DownstreamOps.h - a downstream dialect on tile types -----*- C++ -*-===//

#ifndef DOWNSTREAM_OPS_H
#define DOWNSTREAM_OPS_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "tile/Dialect/Tile/IR/TileDialect.h"

#include "DownstreamDialect.h.inc"

#define GET_OP_CLASSES
#include "DownstreamOps.h.inc"

#endif // DOWNSTREAM_OPS_H
