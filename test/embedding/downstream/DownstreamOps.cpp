//===- DownstreamOps.cpp - a downstream dialect on tile types -------------===//

#include "DownstreamOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"

using namespace mlir;

#include "DownstreamDialect.cpp.inc"

void downstream::DownstreamDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "DownstreamOps.cpp.inc"
      >();
}

#define GET_OP_CLASSES
#include "DownstreamOps.cpp.inc"
