//===- TileDialect.td - tile dialect definition ------------*- tablegen -*-===//

#ifndef TILE_DIALECT_TD
#define TILE_DIALECT_TD

include "mlir/IR/OpBase.td"

def Tile_Dialect : Dialect {
  let name = "tile";
  let cppNamespace = "::mlir::tile";
  let summary = "Block-level (tile) GPU programming";
  let description = [{
    The `tile` dialect describes GPU kernels as operations on whole *blocks*:
    statically shaped, value-semantic arrays such as `!tile.block<16x32xf32>`.
    A kernel is a `func.func` whose body is run once per program instance
    (`tile.program_id`); the compiler, not the author, decides how the
    elements of each block are spread over the threads of a GPU thread block.

    Broadcasting is explicit: elementwise operations take operands of one
    shape, and frontends insert `tile.splat`, `tile.expand_dims` and
    `tile.broadcast` following NumPy's rules.

    Integer division and remainder truncate toward zero (as in C and Triton);
    floating-point `minimumf`/`maximumf` propagate NaN (as in NumPy and
    PyTorch) and `minnumf`/`maxnumf` ignore it (as C's `fmin`/`fmax` and
    Triton's default `tl.minimum`/`tl.maximum`).
  }];
  let useDefaultTypePrinterParser = 1;
  let useDefaultAttributePrinterParser = 1;
  let hasConstantMaterializer = 1;
  // `tile.*` attributes on operations (tile.num_warps, ...) and on function
  // arguments (tile.divisibility) are checked where they are parsed.
  let hasOperationAttrVerify = 1;
  let hasRegionArgAttrVerify = 1;
  let extraClassDeclaration = [{
    void registerTypes();
    void registerAttributes();
  }];
}

class Tile_Op<string mnemonic, list<Trait> traits = []>
    : Op<Tile_Dialect, mnemonic, traits>;

#endif // TILE_DIALECT_TD
