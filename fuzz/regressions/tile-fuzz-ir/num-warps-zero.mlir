func.func @k(%x: !tile.ptr<f32>) attributes {tile.num_warps = 0 : i32} {
  %r = tile.arange 0, 128 : !tile.block<128xi32>
  %xb = tile.splat %x : !tile.ptr<f32> -> !tile.block<128x!tile.ptr<f32>>
  %xp = tile.addptr %xb, %r : !tile.block<128x!tile.ptr<f32>>, !tile.block<128xi32>
  %v = tile.load %xp : !tile.block<128x!tile.ptr<f32>>
  tile.store %xp, %v : !tile.block<128x!tile.ptr<f32>>
  return
}
