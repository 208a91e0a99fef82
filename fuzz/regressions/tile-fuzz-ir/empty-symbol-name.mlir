func.func @""(%x: !tile.ptr<f32>) {
  return
}
