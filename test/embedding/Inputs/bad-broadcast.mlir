func.func @bad(%x: !tile.block<16x2xf32>) {
  %y = tile.broadcast %x : !tile.block<16x2xf32> -> !tile.block<16x32xf32>
  return
}
