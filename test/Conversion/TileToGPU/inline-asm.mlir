// RUN: tile-opt %s -convert-tile-to-gpu -split-input-file -verify-diagnostics | FileCheck %s

// tile.inline_asm runs once per `pack` registers of a thread: 4 i8 per
// thread, pack 4, one asm on one i32 (the bytes as a vector bitcast), its
// two outputs a struct, each unpacked back to four bytes.
#v = #tile.blocked<size_per_thread = [4], threads_per_warp = [32], warps = [1], order = [0]>

// CHECK-LABEL: gpu.func @packed
// CHECK: llvm.bitcast {{.*}} : vector<4xi8> to i32
// CHECK: llvm.inline_asm asm_dialect = att "mov.b32 $0, $2; not.b32 $1, $2;", "=r,=r,r" {{.*}} : (i32) -> !llvm.struct<(i32, i32)>
// CHECK-NOT: llvm.inline_asm
// CHECK: llvm.extractvalue {{.*}}[1] : !llvm.struct<(i32, i32)>
// CHECK: llvm.bitcast {{.*}} : i32 to vector<4xi8>
func.func @packed(%x: !tile.ptr<i8>) attributes {tile.num_warps = 1 : i32} {
  %r = tile.arange 0, 128 : !tile.block<128xi32, #v>
  %xb = tile.splat %x : !tile.ptr<i8> -> !tile.block<128x!tile.ptr<i8>, #v>
  %p = tile.addptr %xb, %r : !tile.block<128x!tile.ptr<i8>, #v>, !tile.block<128xi32, #v>
  %b = tile.load %p : !tile.block<128x!tile.ptr<i8>, #v>
  %c:2 = tile.inline_asm "mov.b32 $0, $2; not.b32 $1, $2;", "=r,=r,r" %b {pack = 4 : i32, pure} : (!tile.block<128xi8, #v>) -> (!tile.block<128xi8, #v>, !tile.block<128xi8, #v>)
  tile.store %p, %c#1 : !tile.block<128x!tile.ptr<i8>, #v>
  return
}

// -----

#w = #tile.blocked<size_per_thread = [1], threads_per_warp = [32], warps = [1], order = [0]>

// A thread holds one element here, so pack 4 cannot be honoured (the layout
// pass chooses layouts that can).
func.func @pack_too_wide(%x: !tile.ptr<i8>) attributes {tile.num_warps = 1 : i32} {
  %r = tile.arange 0, 32 : !tile.block<32xi32, #w>
  %xb = tile.splat %x : !tile.ptr<i8> -> !tile.block<32x!tile.ptr<i8>, #w>
  %p = tile.addptr %xb, %r : !tile.block<32x!tile.ptr<i8>, #w>, !tile.block<32xi32, #w>
  %b = tile.load %p : !tile.block<32x!tile.ptr<i8>, #w>
  // expected-error @+1 {{'tile.inline_asm' op pack 4 does not divide the 1 elements a thread holds}}
  %c = tile.inline_asm "mov.b32 $0, $1;", "=r,r" %b {pack = 4 : i32, pure} : (!tile.block<32xi8, #w>) -> (!tile.block<32xi8, #w>)
  tile.store %p, %c : !tile.block<32x!tile.ptr<i8>, #w>
  return
}

// -----

// The asm text and constraints must fit the operands each instance gets:
// LLVM's asm printer would abort the process (found by tile-fuzz-compile).

#v4 = #tile.blocked<size_per_thread = [4], threads_per_warp = [32], warps = [1], order = [0]>

func.func @operand_past_the_end(%x: !tile.ptr<i8>) attributes {tile.num_warps = 1 : i32} {
  %r = tile.arange 0, 128 : !tile.block<128xi32, #v4>
  %xb = tile.splat %x : !tile.ptr<i8> -> !tile.block<128x!tile.ptr<i8>, #v4>
  %p = tile.addptr %xb, %r : !tile.block<128x!tile.ptr<i8>, #v4>, !tile.block<128xi32, #v4>
  %b = tile.load %p : !tile.block<128x!tile.ptr<i8>, #v4>
  // expected-error @+1 {{'tile.inline_asm' op asm text refers to $5, but each instance of the asm (pack 4) has 2 operands, $0 to $1}}
  %c = tile.inline_asm "mov.b32 $5, $1;", "=r,r" %b {pack = 4 : i32, pure} : (!tile.block<128xi8, #v4>) -> (!tile.block<128xi8, #v4>)
  tile.store %p, %c : !tile.block<128x!tile.ptr<i8>, #v4>
  return
}

// -----

#v4 = #tile.blocked<size_per_thread = [4], threads_per_warp = [32], warps = [1], order = [0]>

func.func @bad_dollar(%x: !tile.ptr<i8>) attributes {tile.num_warps = 1 : i32} {
  %r = tile.arange 0, 128 : !tile.block<128xi32, #v4>
  %xb = tile.splat %x : !tile.ptr<i8> -> !tile.block<128x!tile.ptr<i8>, #v4>
  %p = tile.addptr %xb, %r : !tile.block<128x!tile.ptr<i8>, #v4>, !tile.block<128xi32, #v4>
  %b = tile.load %p : !tile.block<128x!tile.ptr<i8>, #v4>
  // expected-error @+1 {{'tile.inline_asm' op asm text has a '$' at offset 12 that is none of $N, ${N} and $$ (a dollar sign)}}
  %c = tile.inline_asm "mov.b32 $0, $x;", "=r,r" %b {pack = 4 : i32, pure} : (!tile.block<128xi8, #v4>) -> (!tile.block<128xi8, #v4>)
  tile.store %p, %c : !tile.block<128x!tile.ptr<i8>, #v4>
  return
}

// -----

#v4 = #tile.blocked<size_per_thread = [4], threads_per_warp = [32], warps = [1], order = [0]>

func.func @unclosed_brace(%x: !tile.ptr<i8>) attributes {tile.num_warps = 1 : i32} {
  %r = tile.arange 0, 128 : !tile.block<128xi32, #v4>
  %xb = tile.splat %x : !tile.ptr<i8> -> !tile.block<128x!tile.ptr<i8>, #v4>
  %p = tile.addptr %xb, %r : !tile.block<128x!tile.ptr<i8>, #v4>, !tile.block<128xi32, #v4>
  %b = tile.load %p : !tile.block<128x!tile.ptr<i8>, #v4>
  // expected-error @+1 {{'tile.inline_asm' op asm text has a '$' at offset 8 that is none of $N, ${N} and $$ (a dollar sign)}}
  %c = tile.inline_asm "mov.b32 ${0, $1;", "=r,r" %b {pack = 4 : i32, pure} : (!tile.block<128xi8, #v4>) -> (!tile.block<128xi8, #v4>)
  tile.store %p, %c : !tile.block<128x!tile.ptr<i8>, #v4>
  return
}

// -----

#v4 = #tile.blocked<size_per_thread = [4], threads_per_warp = [32], warps = [1], order = [0]>

func.func @constraint_count(%x: !tile.ptr<i8>) attributes {tile.num_warps = 1 : i32} {
  %r = tile.arange 0, 128 : !tile.block<128xi32, #v4>
  %xb = tile.splat %x : !tile.ptr<i8> -> !tile.block<128x!tile.ptr<i8>, #v4>
  %p = tile.addptr %xb, %r : !tile.block<128x!tile.ptr<i8>, #v4>, !tile.block<128xi32, #v4>
  %b = tile.load %p : !tile.block<128x!tile.ptr<i8>, #v4>
  // expected-error @+1 {{'tile.inline_asm' op constraints "=r,r,r" give 1 outputs and 2 inputs, but each instance of the asm (pack 4) has 1 output and 1 input operands}}
  %c = tile.inline_asm "mov.b32 $0, $1;", "=r,r,r" %b {pack = 4 : i32, pure} : (!tile.block<128xi8, #v4>) -> (!tile.block<128xi8, #v4>)
  tile.store %p, %c : !tile.block<128x!tile.ptr<i8>, #v4>
  return
}
