// See include/cpng_support.h for why this file exists: libpng signals errors
// with longjmp, which must never cross a Swift frame. Every libpng call that
// can fail runs here, below a setjmp, and failures come back as return codes.
#include "cpng_support.h"

#include <png.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

// All state that changes between setjmp and a possible longjmp lives in a
// heap-allocated context: C leaves non-volatile automatic variables modified
// after setjmp indeterminate once longjmp returns, heap objects are safe.
typedef struct {
    jmp_buf jump;
    char *message;
    size_t message_capacity;
    int truncated;
    // Reading
    const uint8_t *input;
    size_t input_count;
    size_t input_offset;
    uint8_t *pixels;
    png_bytep *rows;
    // Writing
    uint8_t *output;
    size_t output_count;
    size_t output_capacity;
} pxpng_context;

static void set_message(pxpng_context *ctx, const char *text) {
    if (ctx->message == NULL || ctx->message_capacity == 0) return;
    strncpy(ctx->message, text, ctx->message_capacity - 1);
    ctx->message[ctx->message_capacity - 1] = '\0';
}

static void on_error(png_structp png, png_const_charp text) {
    pxpng_context *ctx = (pxpng_context *)png_get_error_ptr(png);
    set_message(ctx, text != NULL ? text : "libpng error");
    longjmp(ctx->jump, 1);
}

// Warnings (bad ancillary chunk CRCs, unknown chunks, ...) do not stop decoding.
static void on_warning(png_structp png, png_const_charp text) {
    (void)png;
    (void)text;
}

static void read_from_memory(png_structp png, png_bytep destination, png_size_t length) {
    pxpng_context *ctx = (pxpng_context *)png_get_io_ptr(png);
    if (length > ctx->input_count - ctx->input_offset) {
        ctx->truncated = 1;
        png_error(png, "truncated");
    }
    memcpy(destination, ctx->input + ctx->input_offset, length);
    ctx->input_offset += length;
}

static void write_to_memory(png_structp png, png_bytep source, png_size_t length) {
    pxpng_context *ctx = (pxpng_context *)png_get_io_ptr(png);
    if (length > ctx->output_capacity - ctx->output_count) {
        size_t capacity = ctx->output_capacity < 4096 ? 4096 : ctx->output_capacity;
        while (length > capacity - ctx->output_count) capacity *= 2;
        uint8_t *grown = (uint8_t *)realloc(ctx->output, capacity);
        if (grown == NULL) png_error(png, "out of memory");
        ctx->output = grown;
        ctx->output_capacity = capacity;
    }
    memcpy(ctx->output + ctx->output_count, source, length);
    ctx->output_count += length;
}

static void flush_memory(png_structp png) { (void)png; }

int pxpng_decode(const uint8_t *bytes, size_t count, uint32_t max_side, pxpng_image *out,
                 char *message, size_t message_capacity) {
    memset(out, 0, sizeof(*out));
    if (message != NULL && message_capacity > 0) message[0] = '\0';
    if (count < 8 || png_sig_cmp((png_const_bytep)bytes, 0, 8) != 0) {
        if (message != NULL && message_capacity > 0) {
            strncpy(message, "not a PNG file (bad signature)", message_capacity - 1);
            message[message_capacity - 1] = '\0';
        }
        return PXPNG_ERR_SIGNATURE;
    }
    pxpng_context *ctx = (pxpng_context *)calloc(1, sizeof(pxpng_context));
    if (ctx == NULL) return PXPNG_ERR_MEMORY;
    ctx->message = message;
    ctx->message_capacity = message_capacity;
    ctx->input = bytes;
    ctx->input_count = count;

    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, ctx, on_error, on_warning);
    if (png == NULL) {
        free(ctx);
        return PXPNG_ERR_MEMORY;
    }
    png_infop info = png_create_info_struct(png);
    if (info == NULL) {
        png_destroy_read_struct(&png, NULL, NULL);
        free(ctx);
        return PXPNG_ERR_MEMORY;
    }

    int code = PXPNG_OK;
    if (setjmp(ctx->jump) != 0) {
        code = ctx->truncated ? PXPNG_ERR_TRUNCATED : PXPNG_ERR_LIBPNG;
        goto cleanup;
    }

    png_set_read_fn(png, ctx, read_from_memory);
    png_read_info(png, info);

    png_uint_32 width = 0, height = 0;
    int bit_depth = 0, color_type = 0, interlace = 0;
    png_get_IHDR(png, info, &width, &height, &bit_depth, &color_type, &interlace, NULL, NULL);
    if (width > max_side || height > max_side) {
        set_message(ctx, "image dimensions exceed the limit");
        code = PXPNG_ERR_TOO_LARGE;
        goto cleanup;
    }

    // Transformations: everything ends up as 8- or 16-bit grey, grey+alpha, RGB or RGBA.
    if (color_type == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(png);
    if (color_type == PNG_COLOR_TYPE_GRAY && bit_depth < 8) png_set_expand_gray_1_2_4_to_8(png);
    if (png_get_valid(png, info, PNG_INFO_tRNS)) png_set_tRNS_to_alpha(png);
    png_set_interlace_handling(png);
    png_read_update_info(png, info);

    int out_depth = png_get_bit_depth(png, info);
    int out_channels = png_get_channels(png, info);
    size_t row_bytes = png_get_rowbytes(png, info);
    size_t expected_row = (size_t)width * (size_t)out_channels * (size_t)(out_depth / 8);
    if ((out_depth != 8 && out_depth != 16) || out_channels < 1 || out_channels > 4 ||
        row_bytes != expected_row) {
        set_message(ctx, "unsupported pixel layout after expansion");
        code = PXPNG_ERR_LIBPNG;
        goto cleanup;
    }

    ctx->pixels = (uint8_t *)malloc(row_bytes * (size_t)height);
    ctx->rows = (png_bytep *)malloc(sizeof(png_bytep) * (size_t)height);
    if (ctx->pixels == NULL || ctx->rows == NULL) {
        set_message(ctx, "out of memory");
        code = PXPNG_ERR_MEMORY;
        goto cleanup;
    }
    for (png_uint_32 y = 0; y < height; y++) ctx->rows[y] = ctx->pixels + (size_t)y * row_bytes;
    png_read_image(png, ctx->rows);
    // Reads the chunks after the image data up to IEND, so a file cut after its
    // last IDAT is still reported as truncated.
    png_read_end(png, NULL);

    out->width = width;
    out->height = height;
    out->bit_depth = out_depth;
    out->channels = out_channels;
    out->data = ctx->pixels;
    out->size = row_bytes * (size_t)height;
    ctx->pixels = NULL;  // ownership moves to the caller

cleanup:
    png_destroy_read_struct(&png, &info, NULL);
    free(ctx->pixels);
    free(ctx->rows);
    free(ctx);
    return code;
}

int pxpng_encode(const uint8_t *pixels, uint32_t width, uint32_t height, int channels,
                 int bit_depth, int compression_level, uint8_t **out_bytes, size_t *out_count,
                 char *message, size_t message_capacity) {
    *out_bytes = NULL;
    *out_count = 0;
    if (message != NULL && message_capacity > 0) message[0] = '\0';
    static const int color_types[5] = {0, PNG_COLOR_TYPE_GRAY, PNG_COLOR_TYPE_GRAY_ALPHA,
                                       PNG_COLOR_TYPE_RGB, PNG_COLOR_TYPE_RGB_ALPHA};
    if (width == 0 || height == 0 || channels < 1 || channels > 4 ||
        (bit_depth != 8 && bit_depth != 16) || pixels == NULL) {
        if (message != NULL && message_capacity > 0) {
            strncpy(message, "invalid image for encoding", message_capacity - 1);
            message[message_capacity - 1] = '\0';
        }
        return PXPNG_ERR_ARGUMENT;
    }
    pxpng_context *ctx = (pxpng_context *)calloc(1, sizeof(pxpng_context));
    if (ctx == NULL) return PXPNG_ERR_MEMORY;
    ctx->message = message;
    ctx->message_capacity = message_capacity;

    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, ctx, on_error, on_warning);
    if (png == NULL) {
        free(ctx);
        return PXPNG_ERR_MEMORY;
    }
    png_infop info = png_create_info_struct(png);
    if (info == NULL) {
        png_destroy_write_struct(&png, NULL);
        free(ctx);
        return PXPNG_ERR_MEMORY;
    }

    int code = PXPNG_OK;
    if (setjmp(ctx->jump) != 0) {
        code = PXPNG_ERR_LIBPNG;
        goto cleanup;
    }

    png_set_write_fn(png, ctx, write_to_memory, flush_memory);
    if (compression_level >= 0 && compression_level <= 9) png_set_compression_level(png, compression_level);
    png_set_IHDR(png, info, width, height, bit_depth, color_types[channels], PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_write_info(png, info);

    size_t row_bytes = (size_t)width * (size_t)channels * (size_t)(bit_depth / 8);
    ctx->rows = (png_bytep *)malloc(sizeof(png_bytep) * (size_t)height);
    if (ctx->rows == NULL) png_error(png, "out of memory");
    // libpng only reads the rows when no write transformations are set.
    for (png_uint_32 y = 0; y < height; y++) ctx->rows[y] = (png_bytep)(pixels + (size_t)y * row_bytes);
    png_write_image(png, ctx->rows);
    png_write_end(png, NULL);

    *out_bytes = ctx->output;
    *out_count = ctx->output_count;
    ctx->output = NULL;

cleanup:
    png_destroy_write_struct(&png, &info);
    free(ctx->output);
    free(ctx->rows);
    free(ctx);
    return code;
}

void pxpng_free(void *pointer) { free(pointer); }

const char *pxpng_libpng_version(void) { return png_get_libpng_ver(NULL); }
