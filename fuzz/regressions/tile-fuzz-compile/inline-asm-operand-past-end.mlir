#w = #tile.blocked<size_per_thread = [1], threads_per_warp = [32], warps = [1], order = [0]>

// A thread holds one element here, so pack 4 cannot be honoured (the layout
// pass chooses layouts that can).
func.func @pack_too_wide(%x: !tile.ptr<i8>) attributes {tile.num_warps = 1 : i32} {
  %r = tile.arange 0, 32 : !tile.block<32xi32, #w>
  %xb = tile.splat %x : !tile.ptr<i8> -> !tile.block<32x!tile.ptr<i8>, #w>
  %p = tile.addptr %xb, %r : !tile.block<32x!tile.ptr<i8>, #w>, !tile.block<32xi32, #w>
  %b = tile.load %p : !tile.block<32x!tile.ptr<i8>, #w>
  %c = tile.inline_asm "mov.b32 $5, $1;", "=r,r" %b {pack = 4 : i32, pure} : (!tile.block<32xi8, #w>) -> (!tile.block<32xi8, #w>)
  tile.store %p, %c : !tile.block<32x!tile.ptr<i8>, #w>
  return
}
