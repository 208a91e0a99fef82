// A downstream op whose operand type is tile's !tile.block.
func.func @count(%b: !tile.block<16x32xf32>) -> index {
  %n = downstream.num_elements %b : !tile.block<16x32xf32>
  return %n : index
}
