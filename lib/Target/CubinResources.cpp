//===- CubinResources.cpp - what a kernel uses, read off its cubin --------===//

#include "CubinResources.h"

#include "llvm/Support/Endian.h"

#include <cstdint>

using namespace mlir::tile;
using llvm::StringRef;

namespace {
/// Little-endian fields of an ELF64 image, bounds-checked: a read past the
/// end fails the whole lookup.
struct Image {
  StringRef bytes;
  bool ok = true;

  template <typename T> T read(uint64_t offset) {
    if (offset > bytes.size() || bytes.size() - offset < sizeof(T)) {
      ok = false;
      return 0;
    }
    return llvm::support::endian::read<T, llvm::endianness::little>(
        bytes.data() + offset);
  }
  StringRef string(uint64_t offset) {
    if (offset >= bytes.size()) {
      ok = false;
      return "";
    }
    StringRef rest = bytes.drop_front(offset);
    return rest.take_front(rest.find('\0'));
  }
};

struct Section {
  StringRef name;
  uint64_t offset, size;
  uint32_t link;
};

// `.nv.info` records: a format byte, an attribute byte, then by format
// nothing, 1 or 2 bytes, or a 16-bit size and that many bytes. The
// per-kernel ones this reads hold a 32-bit symbol index and a value.
constexpr uint8_t kFormatNone = 1, kFormatByte = 2, kFormatHalf = 3,
                  kFormatSized = 4;
constexpr uint8_t kAttrFrameSize = 0x11, kAttrRegisterCount = 0x2f;
} // namespace

std::optional<KernelResources> mlir::tile::readKernelResources(StringRef cubin,
                                                               StringRef name) {
  Image image{cubin};
  if (!cubin.starts_with("\x7f"
                         "ELF") ||
      image.read<uint8_t>(4) != 2 /* ELFCLASS64 */)
    return std::nullopt;
  uint64_t sectionsAt = image.read<uint64_t>(0x28);
  uint16_t entrySize = image.read<uint16_t>(0x3a);
  uint16_t count = image.read<uint16_t>(0x3c);
  uint16_t namesIndex = image.read<uint16_t>(0x3e);
  if (!image.ok || entrySize < 64 || namesIndex >= count)
    return std::nullopt;
  auto header = [&](unsigned index) {
    uint64_t at = sectionsAt + uint64_t(index) * entrySize;
    return Section{"", image.read<uint64_t>(at + 24),
                   image.read<uint64_t>(at + 32),
                   image.read<uint32_t>(at + 40)};
  };
  uint64_t namesAt = header(namesIndex).offset;
  Section info{}, symbols{};
  for (unsigned i = 0; i < count && image.ok; ++i) {
    Section section = header(i);
    section.name = image.string(
        namesAt + image.read<uint32_t>(sectionsAt + uint64_t(i) * entrySize));
    if (section.name == ".nv.info")
      info = section;
    else if (section.name == ".symtab")
      symbols = section;
  }
  if (!image.ok || !info.size || !symbols.size || symbols.link >= count)
    return std::nullopt;

  // The kernel's symbol index (ELF64 symbols are 24 bytes, the name first).
  uint64_t stringsAt = header(symbols.link).offset;
  std::optional<uint32_t> symbol;
  for (uint64_t i = 0; i * 24 < symbols.size && image.ok && !symbol; ++i)
    if (image.string(stringsAt +
                     image.read<uint32_t>(symbols.offset + i * 24)) == name)
      symbol = i;
  if (!symbol)
    return std::nullopt;

  KernelResources resources;
  bool sawRegisters = false;
  for (uint64_t at = info.offset, end = info.offset + info.size;
       at + 2 <= end && image.ok;) {
    uint8_t format = image.read<uint8_t>(at);
    uint8_t attribute = image.read<uint8_t>(at + 1);
    at += 2;
    if (format == kFormatNone)
      continue;
    if (format == kFormatByte || format == kFormatHalf) {
      at += format == kFormatByte ? 1 : 2;
      continue;
    }
    if (format != kFormatSized)
      return std::nullopt;
    uint16_t size = image.read<uint16_t>(at);
    at += 2;
    if (size == 8 && image.read<uint32_t>(at) == *symbol) {
      uint32_t value = image.read<uint32_t>(at + 4);
      if (attribute == kAttrRegisterCount) {
        resources.registers = value;
        sawRegisters = true;
      } else if (attribute == kAttrFrameSize) {
        resources.stackFrameBytes = value;
      }
    }
    at += size;
  }
  if (!image.ok || !sawRegisters)
    return std::nullopt;
  return resources;
}
