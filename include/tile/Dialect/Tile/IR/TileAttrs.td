//===- TileAttrs.td - tile dialect attributes --------------*- tablegen -*-===//

#ifndef TILE_ATTRS_TD
#define TILE_ATTRS_TD

include "tile/Dialect/Tile/IR/TileDialect.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"

class Tile_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<Tile_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
}

def Tile_BlockedLayoutAttr : Tile_Attr<"BlockedLayout", "blocked"> {
  let summary = "How the elements of a block are spread over GPU threads";
  let description = [{
    A blocked layout distributes the elements of a block, taken in row-major
    (linear) order, over `warps` warps of 32 threads: each thread owns
    `vector` consecutive elements, consecutive threads own consecutive
    chunks, and the pattern repeats until the block is covered. Thread `t`
    of `T = 32 * warps` threads therefore owns the linear elements
    `(r * T + t) * vector + v` for `v < vector` and every repetition `r`.
    Chunks past the end of the block are masked off.

    Because the order is the linear one, `tile.expand_dims` and
    `tile.reshape` keep a layout unchanged, and a thread's chunk is
    contiguous in memory whenever the addresses are: the layout pass picks
    `vector` from an analysis of the addresses so that loads and stores
    become 128-bit accesses.

    Example:

    ```mlir
    !tile.block<16x32xf32, #tile.blocked<vector = 4, warps = 4>>
    ```
  }];
  let parameters = (ins "unsigned":$vector, "unsigned":$warps);
  let assemblyFormat = "`<` `vector` `=` $vector `,` `warps` `=` $warps `>`";
  let genVerifyDecl = 1;
}

def Tile_CombineKind : I32EnumAttr<"CombineKind",
    "how a reduction or scan combines two elements", [
      I32EnumAttrCase<"sum", 0>,
      I32EnumAttrCase<"max", 1>,
      I32EnumAttrCase<"min", 2>,
      I32EnumAttrCase<"custom", 3>
    ]> {
  let cppNamespace = "::mlir::tile";
  let genSpecializedAttr = 0;
}

def Tile_CombineKindAttr : EnumAttr<Tile_Dialect, Tile_CombineKind, "combine"> {
  let assemblyFormat = "$value";
}

#endif // TILE_ATTRS_TD
