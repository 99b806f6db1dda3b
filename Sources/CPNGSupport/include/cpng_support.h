// CPNGSupport: a thin setjmp/longjmp wall around libpng's classic API.
//
// libpng reports errors by calling png_error(), which longjmps (or aborts when
// no jump buffer is set). Swift cannot unwind through a longjmp, so every call
// into libpng that may fail lives in this C file, behind a setjmp. Each public
// function returns 0 on success or a non-zero code, and writes a human-readable
// reason into the caller's message buffer.
#ifndef CPNG_SUPPORT_H
#define CPNG_SUPPORT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Result codes of the pxpng_* functions.
enum {
    PXPNG_OK = 0,
    PXPNG_ERR_SIGNATURE = 1,  ///< the bytes do not start with the 8-byte PNG signature
    PXPNG_ERR_TRUNCATED = 2,  ///< the data ended before the image was complete
    PXPNG_ERR_LIBPNG = 3,     ///< libpng reported an error (message says which)
    PXPNG_ERR_TOO_LARGE = 4,  ///< width or height exceeds the caller's limit
    PXPNG_ERR_MEMORY = 5,     ///< an allocation failed
    PXPNG_ERR_ARGUMENT = 6    ///< invalid arguments (encoder)
};

/// A decoded image: 8- or 16-bit samples, 1 to 4 channels, rows packed with no padding.
/// 16-bit samples stay in PNG's big-endian byte order.
typedef struct {
    uint32_t width;
    uint32_t height;
    int bit_depth;     ///< 8 or 16
    int channels;      ///< 1 grey, 2 grey+alpha, 3 RGB, 4 RGBA
    uint8_t *data;     ///< malloc'd; release with pxpng_free
    size_t size;       ///< bytes in data = width * height * channels * bit_depth / 8
} pxpng_image;

/// Flags for pxpng_decode.
enum {
    /// Skip the chunk CRC-32 and zlib Adler-32 checks. Structural damage
    /// (truncation, bad chunk layout, invalid deflate data, wrong amount of
    /// image data) is still an error; flipped bits inside the compressed data
    /// may go unnoticed. Meant for replaying trusted datasets, where the
    /// checksums cost time on every frame.
    PXPNG_DECODE_SKIP_CHECKSUMS = 1
};

/// Decodes a whole PNG. Palette images are expanded to RGB (RGBA when tRNS is
/// present), 1/2/4-bit grey to 8-bit, and a tRNS colour key to an alpha channel.
/// Images wider or taller than max_side are rejected before any pixel buffer is allocated.
///
/// `flags` is a combination of PXPNG_DECODE_* values.
///
/// When `destination` is not NULL and the decoded pixels occupy exactly
/// `destination_size` bytes, they are written there and out->data == destination
/// (the caller keeps ownership; do not pxpng_free it). Otherwise out->data is a
/// fresh malloc'd buffer. Passing the caller's final pixel storage saves a copy.
///
/// Non-interlaced 8/16-bit grey, grey+alpha, RGB and RGBA images without tRNS
/// (which covers camera datasets) are decoded by a direct zlib + unfilter path;
/// every other image, and every file that path finds anything unusual in, goes
/// through libpng, so errors are reported exactly as libpng reports them.
int pxpng_decode(const uint8_t *bytes, size_t count, uint32_t max_side, int flags,
                 uint8_t *destination, size_t destination_size, pxpng_image *out,
                 char *message, size_t message_capacity);

/// Encodes packed pixels (bit_depth 8 or 16; 16-bit samples big-endian) with
/// channels 1..4. On success *out_bytes is malloc'd; release with pxpng_free.
int pxpng_encode(const uint8_t *pixels, uint32_t width, uint32_t height, int channels,
                 int bit_depth, int compression_level, uint8_t **out_bytes, size_t *out_count,
                 char *message, size_t message_capacity);

/// Frees memory returned by pxpng_decode / pxpng_encode.
void pxpng_free(void *pointer);

/// The libpng version string the library was linked against.
const char *pxpng_libpng_version(void);

#ifdef __cplusplus
}
#endif

#endif
