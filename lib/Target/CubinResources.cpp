//===- CubinResources.cpp - what a kernel uses, read off its cubin --------===//

#include "CubinResources.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Object/ELF.h"
#include "llvm/Support/Endian.h"

#include <cstdint>

using namespace mlir::tile;
using llvm::StringRef;

// `.nv.info` records: a format byte, an attribute byte, then by format
// nothing, 1 or 2 bytes, or a 16-bit size and that many bytes. The
// per-kernel ones this reads hold a 32-bit symbol index and a value.
static constexpr uint8_t kFormatNone = 1, kFormatByte = 2, kFormatHalf = 3,
                         kFormatSized = 4;
static constexpr uint8_t kAttrFrameSize = 0x11, kAttrRegisterCount = 0x2f;

std::optional<KernelResources> mlir::tile::readKernelResources(StringRef cubin,
                                                               StringRef name) {
  using ELF = llvm::object::ELF64LEFile;
  auto quietly = [](auto expected) {
    if (!expected)
      llvm::consumeError(expected.takeError());
    return expected;
  };
  auto file = quietly(ELF::create(cubin));
  if (!file)
    return std::nullopt;
  auto sections = quietly(file->sections());
  if (!sections)
    return std::nullopt;
  StringRef info;
  std::optional<uint32_t> symbol;
  for (const ELF::Elf_Shdr &section : *sections) {
    auto sectionName = quietly(file->getSectionName(section));
    if (sectionName && *sectionName == ".nv.info") {
      if (auto contents = quietly(file->getSectionContents(section)))
        info = llvm::toStringRef(*contents);
    } else if (section.sh_type == llvm::ELF::SHT_SYMTAB) {
      auto symbols = quietly(file->symbols(&section));
      auto strings = quietly(file->getStringTableForSymtab(section));
      if (!symbols || !strings)
        return std::nullopt;
      for (auto [index, entry] : llvm::enumerate(*symbols)) {
        auto symbolName = quietly(entry.getName(*strings));
        if (symbolName && *symbolName == name)
          symbol = index;
      }
    }
  }
  if (info.empty() || !symbol)
    return std::nullopt;

  using llvm::support::endian::read16le;
  using llvm::support::endian::read32le;
  KernelResources resources;
  bool sawRegisters = false;
  for (size_t at = 0; at + 2 <= info.size();) {
    uint8_t format = info[at], attribute = info[at + 1];
    at += 2;
    if (format == kFormatNone)
      continue;
    if (format == kFormatByte || format == kFormatHalf) {
      at += format == kFormatByte ? 1 : 2;
      continue;
    }
    if (format != kFormatSized || at + 2 > info.size())
      return std::nullopt;
    uint16_t size = read16le(info.data() + at);
    at += 2;
    if (at + size > info.size())
      return std::nullopt;
    if (size == 8 && read32le(info.data() + at) == *symbol) {
      uint32_t value = read32le(info.data() + at + 4);
      if (attribute == kAttrRegisterCount) {
        resources.registers = value;
        sawRegisters = true;
      } else if (attribute == kAttrFrameSize) {
        resources.stackFrameBytes = value;
      }
    }
    at += size;
  }
  if (!sawRegisters)
    return std::nullopt;
  return resources;
}
