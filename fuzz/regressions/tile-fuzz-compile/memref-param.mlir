func.func @k(%m: memref<4xf32>, %p: !tile.ptr<f32>) {
  return
}
