// tile.* attributes are checked where they are parsed: divisibilities of 0,
// -16, 2^40, "16" or 16.0 used to be accepted (and 2^40 overflowed the axis
// analysis' products), a misspelled attribute was ignored, and a hand-set
// tile.num_warps of 0 reached the lowering.
// RUN: tile-opt %s -split-input-file -verify-diagnostics

// expected-error @+1 {{'tile.divisibility' of argument 0 must be an i32 power of two from 1 to 2^30 (as in `tile.divisibility = 16 : i32`), not 0}}
func.func @zero(%x: !tile.ptr<f32> {tile.divisibility = 0 : i32}) { return }

// -----

// expected-error @+1 {{'tile.divisibility' of argument 1 must be an i32 power of two from 1 to 2^30 (as in `tile.divisibility = 16 : i32`), not -16}}
func.func @negative(%x: !tile.ptr<f32>, %n: i32 {tile.divisibility = -16 : i32}) { return }

// -----

// expected-error @+1 {{not 1099511627776 : i64}}
func.func @huge(%x: !tile.ptr<f32> {tile.divisibility = 1099511627776 : i64}) { return }

// -----

// expected-error @+1 {{not 2147483648 : i64}}
func.func @above_max(%x: !tile.ptr<f32> {tile.divisibility = 2147483648 : i64}) { return }

// -----

// expected-error @+1 {{not "16"}}
func.func @string(%x: !tile.ptr<f32> {tile.divisibility = "16"}) { return }

// -----

// expected-error @+1 {{not 1.600000e+01 : f32}}
func.func @float(%x: !tile.ptr<f32> {tile.divisibility = 16.0 : f32}) { return }

// -----

// expected-error @+1 {{not 16 : i64}}
func.func @untyped(%x: !tile.ptr<f32> {tile.divisibility = 16}) { return }

// -----

// expected-error @+1 {{must be an i32 power of two from 1 to 2^30 (as in `tile.divisibility = 16 : i32`), not 12}}
func.func @not_power_of_two(%x: !tile.ptr<f32> {tile.divisibility = 12 : i32}) { return }

// -----

// expected-error @+1 {{unknown argument attribute 'tile.divisiblity' of the tile dialect; the tile attributes on arguments are tile.divisibility and tile.tensor_map_recipe}}
func.func @misspelled(%x: !tile.ptr<f32> {tile.divisiblity = 16 : i32}) { return }

// -----

// expected-error @+1 {{'tile.num_warps' must be an i32 power of two from 1 to 32, not 0}}
func.func @no_warps(%x: !tile.ptr<f32>) attributes {tile.num_warps = 0 : i32} { return }

// -----

// expected-error @+1 {{'tile.num_warps' must be an i32 power of two from 1 to 32, not "4"}}
func.func @string_warps(%x: !tile.ptr<f32>) attributes {tile.num_warps = "4"} { return }

// -----

// expected-error @+1 {{unknown attribute 'tile.num_warp' of the tile dialect; the tile attributes on operations are tile.num_warps, tile.threads, tile.shared_bytes, tile.num_stages, tile.loop_unroll_factor}}
func.func @misspelled_warps(%x: !tile.ptr<f32>) attributes {tile.num_warp = 4 : i32} { return }

// -----

// The attributes as the frontends and passes write them.
func.func @valid(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32},
                 %n: i32 {tile.divisibility = 1073741824 : i32},
                 %m: i32 {tile.divisibility = 1 : i32})
    attributes {tile.num_warps = 32 : i32} {
  return
}

// -----

// Loop schedule hints (tl.range's num_stages, loop_unroll_factor) belong on
// scf.for loops, within their ranges.
func.func @stages_off_loop(%x: !tile.ptr<f32>) {
  // expected-error @+1 {{'tile.num_stages' belongs on an scf.for, not on 'arith.constant'}}
  %c = arith.constant {tile.num_stages = 2 : i32} 0 : i32
  return
}

// -----

func.func @zero_unroll(%n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  // expected-error @+1 {{'tile.loop_unroll_factor' must be an i32 from 1 to 64, not 0}}
  scf.for %i = %c0 to %n step %c1 : i32 {
  } {tile.loop_unroll_factor = 0 : i32}
  return
}

// -----

func.func @deep_stages(%n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  // expected-error @+1 {{'tile.num_stages' must be an i32 from 1 to 16, not 17}}
  scf.for %i = %c0 to %n step %c1 : i32 {
  } {tile.num_stages = 17 : i32}
  return
}

// -----

// expected-error @+1 {{'tile.tensor_map_recipe' of argument 2: must be {name = "...", base = i64, shape = [...], strides = [...]}, each extent or stride [i64 scale, array<i64: argument numbers>] with at most 8 arguments}}
func.func @recipe_without_strides(%p: !tile.ptr<f16>, %n: i32, %map: !tile.tensor_map {tile.tensor_map_recipe = {name = "p.tensor_map", base = 0, shape = [[1, array<i64: 1>]]}}) { return }

// -----

// expected-error @+1 {{'tile.tensor_map_recipe' of argument 2: needs a last stride of 1 (the innermost dimension contiguous)}}
func.func @recipe_strided_last(%p: !tile.ptr<f16>, %n: i32, %map: !tile.tensor_map {tile.tensor_map_recipe = {name = "p.tensor_map", base = 0, shape = [[1, array<i64: 1>]], strides = [[2, array<i64>]]}}) { return }

// -----

// expected-error @+1 {{'tile.tensor_map_recipe' of argument 2 names an argument that is not one of the 2 others}}
func.func @recipe_unknown_argument(%p: !tile.ptr<f16>, %n: i32, %map: !tile.tensor_map {tile.tensor_map_recipe = {name = "p.tensor_map", base = 0, shape = [[1, array<i64: 5>]], strides = [[1, array<i64>]]}}) { return }

// -----

// expected-error @+1 {{'tile.tensor_map_recipe' of argument 2: must be}}
func.func @recipe_too_many_factors(%p: !tile.ptr<f16>, %n: i32, %map: !tile.tensor_map {tile.tensor_map_recipe = {name = "p.tensor_map", base = 0, shape = [[1, array<i64: 1, 1, 1, 1, 1, 1, 1, 1, 1>]], strides = [[1, array<i64>]]}}) { return }
