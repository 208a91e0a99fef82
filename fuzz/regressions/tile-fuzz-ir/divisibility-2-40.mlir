func.func @k(%x: !tile.ptr<f32> {tile.divisibility = 1099511627776 : i64}) {
  return
}
