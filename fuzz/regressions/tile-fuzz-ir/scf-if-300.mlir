func.func @k(%p: !tile.ptr<f32>, %c0: i1, %c1: i1) {
  %v = tile.load %p : !tile.ptr<f32>
scf.if %c0 {
scf.if %c1 {
scf.if %c0 {
scf.if %c1 {
scf.if %c0 {
scf.if %c1 {
scf.if %c0 {
scf.if %c1 {
scf.if %c0 {
scf.if %c1 {
scf.if %c0 {
scf.if %c1 {
scf.if %c0 {
scf.if %c1 {
scf.if %c0 {
scf.if %c1 {
scf.if %c0 {
scf.if %c1 {
scf.if %c0 {
scf.if %c1 {
scf.if %c0 {
scf.if %c1 {
scf.if %c0 {
scf.if %c1 {
scf.if %c0 {
scf.if %c1 {
scf.if %c0 {
scf.if %c1 {
scf.if %c0 {
scf.if %c1 {
scf.if %c0 {
scf.if %c1 {
scf.if %c0 {
scf.if %c1 {
scf.if %c0 {
scf.if %c1 {
scf.if %c0 {
scf.if %c1 {
scf.if %c0 {
scf.if %c1 {
scf.if %c0 {
scf.if %c1 {
scf.if %c0 {
scf.if %c1 {
scf.if %c0 {
scf.if %c1 {
scf.if %c0 {
scf.if %c1 {
scf.if %c0 {
scf.if %c1 {
scf.if %c0 {
scf.if %c1 {
scf.if %c0 {
scf.if %c1 {
scf.if %c0 {
scf.if %c1 {
scf.if %c0 {
scf.if %c1 {
scf.if %c0 {
scf.if %c1 {
scf.if %c0 {
scf.if %c1 {
scf.if %c0 {
scf.if %c1 {
scf.if %c0 {
scf.if %c1 {
scf.if %c0 {
scf.if %c1 {
scf.if %c0 {
scf.if %c1 {
scf.if %c0 {
scf.if %c1 {
scf.if %c0 {
scf.if %c1 {
scf.if %c0 {
scf.if %c1 {
scf.if %c0 {
scf.if %c1 {
scf.if %c0 {
scf.if %c1 {
scf.if %c0 {
scf.if %c1 {
scf.if %c0 {
scf.if %c1 {
scf.if %c0 {
scf.if %c1 {
scf.if %c0 {
scf.if %c1 {
scf.if %c0 {
scf.if %c1 {
scf.if %c0 {
scf.if %c1 {
scf.if %c0 {
scf.if %c1 {
scf.if %c0 {
scf.if %c1 {
scf.if %c0 {
scf.if %c1 {
scf.if %c0 {
scf.if %c1 {
scf.if %c0 {
scf.if %c1 {
scf.if %c0 {
scf.if %c1 {
scf.if %c0 {
scf.if %c1 {
scf.if %c0 {
scf.if %c1 {
scf.if %c0 {
scf.if %c1 {
scf.if %c0 {
scf.if %c1 {
scf.if %c0 {
scf.if %c1 {
scf.if %c0 {
scf.if %c1 {
scf.if %c0 {
scf.if %c1 {
scf.if %c0 {
scf.if %c1 {
scf.if %c0 {
scf.if %c1 {
scf.if %c0 {
scf.if %c1 {
scf.if %c0 {
scf.if %c1 {
scf.if %c0 {
scf.if %c1 {
scf.if %c0 {
scf.if %c1 {
scf.if %c0 {
scf.if %c1 {
scf.if %c0 {
scf.if %c1 {
scf.if %c0 {
scf.if %c1 {
scf.if %c0 {
scf.if %c1 {
scf.if %c0 {
scf.if %c1 {
scf.if %c0 {
scf.if %c1 {
scf.if %c0 {
scf.if %c1 {
scf.if %c0 {
scf.if %c1 {
scf.if %c0 {
scf.if %c1 {
scf.if %c0 {
scf.if %c1 {
scf.if %c0 {
scf.if %c1 {
scf.if %c0 {
scf.if %c1 {
scf.if %c0 {
scf.if %c1 {
scf.if %c0 {
scf.if %c1 {
scf.if %c0 {
scf.if %c1 {
scf.if %c0 {
scf.if %c1 {
scf.if %c0 {
scf.if %c1 {
scf.if %c0 {
scf.if %c1 {
scf.if %c0 {
scf.if %c1 {
scf.if %c0 {
scf.if %c1 {
scf.if %c0 {
scf.if %c1 {
scf.if %c0 {
scf.if %c1 {
scf.if %c0 {
scf.if %c1 {
scf.if %c0 {
scf.if %c1 {
scf.if %c0 {
scf.if %c1 {
scf.if %c0 {
scf.if %c1 {
scf.if %c0 {
scf.if %c1 {
scf.if %c0 {
scf.if %c1 {
scf.if %c0 {
scf.if %c1 {
scf.if %c0 {
scf.if %c1 {
scf.if %c0 {
scf.if %c1 {
scf.if %c0 {
scf.if %c1 {
scf.if %c0 {
scf.if %c1 {
scf.if %c0 {
scf.if %c1 {
scf.if %c0 {
scf.if %c1 {
scf.if %c0 {
scf.if %c1 {
scf.if %c0 {
scf.if %c1 {
scf.if %c0 {
scf.if %c1 {
scf.if %c0 {
scf.if %c1 {
scf.if %c0 {
scf.if %c1 {
scf.if %c0 {
scf.if %c1 {
scf.if %c0 {
scf.if %c1 {
scf.if %c0 {
scf.if %c1 {
scf.if %c0 {
scf.if %c1 {
scf.if %c0 {
scf.if %c1 {
scf.if %c0 {
scf.if %c1 {
scf.if %c0 {
scf.if %c1 {
scf.if %c0 {
scf.if %c1 {
scf.if %c0 {
scf.if %c1 {
scf.if %c0 {
scf.if %c1 {
scf.if %c0 {
scf.if %c1 {
scf.if %c0 {
scf.if %c1 {
scf.if %c0 {
scf.if %c1 {
scf.if %c0 {
scf.if %c1 {
scf.if %c0 {
scf.if %c1 {
scf.if %c0 {
scf.if %c1 {
scf.if %c0 {
scf.if %c1 {
scf.if %c0 {
scf.if %c1 {
scf.if %c0 {
scf.if %c1 {
scf.if %c0 {
scf.if %c1 {
scf.if %c0 {
scf.if %c1 {
scf.if %c0 {
scf.if %c1 {
scf.if %c0 {
scf.if %c1 {
scf.if %c0 {
scf.if %c1 {
scf.if %c0 {
scf.if %c1 {
scf.if %c0 {
scf.if %c1 {
scf.if %c0 {
scf.if %c1 {
scf.if %c0 {
scf.if %c1 {
scf.if %c0 {
scf.if %c1 {
scf.if %c0 {
scf.if %c1 {
scf.if %c0 {
scf.if %c1 {
scf.if %c0 {
scf.if %c1 {
scf.if %c0 {
scf.if %c1 {
scf.if %c0 {
scf.if %c1 {
scf.if %c0 {
scf.if %c1 {
scf.if %c0 {
scf.if %c1 {
scf.if %c0 {
scf.if %c1 {
scf.if %c0 {
scf.if %c1 {
scf.if %c0 {
scf.if %c1 {
scf.if %c0 {
scf.if %c1 {
scf.if %c0 {
scf.if %c1 {
scf.if %c0 {
scf.if %c1 {
scf.if %c0 {
scf.if %c1 {
scf.if %c0 {
scf.if %c1 {
scf.if %c0 {
scf.if %c1 {
  tile.store %p, %v : !tile.ptr<f32>
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
  return
}
