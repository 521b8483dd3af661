/* A plain C program that runs a model compiled by xlir-compile.
 *
 * Build it against the model's header and object (build_and_run.sh does):
 *
 *   cc -O2 -DXLIR_ENTRY=NAME -DXLIR_PREFIX=UPPER '-DXLIR_HEADER="model.h"' \
 *      -I. main.c model.o -lm -lpthread -o model_main
 *
 * where NAME is the --entry given to xlir-compile and UPPER the same in
 * upper case (the header's macro prefix). Run:
 *
 *   ./model_main inputs.bin [outputs.bin] [repeat]
 *
 * inputs.bin holds the arguments back to back, each row-major in its element
 * type (MODEL_ARG<i>_BYTES bytes); the outputs are printed (first values of
 * float32 results) and written back to back to outputs.bin. With repeat > 1
 * the program also prints the time per call.
 */
#define _POSIX_C_SOURCE 199309L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include XLIR_HEADER

#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)
#define ENTRY XLIR_ENTRY
#define NUM_ARGS CAT(XLIR_PREFIX, _NUM_ARGS)
#define NUM_RESULTS CAT(XLIR_PREFIX, _NUM_RESULTS)
#define TEMP_BYTES CAT(XLIR_PREFIX, _TEMP_BYTES)
#define TEMP_ALIGNMENT CAT(XLIR_PREFIX, _TEMP_ALIGNMENT)
#define ARG_BYTES CAT(XLIR_PREFIX, _ARG_BYTES)
#define RESULT_BYTES CAT(XLIR_PREFIX, _RESULT_BYTES)
#define RESULT_TYPES CAT(XLIR_PREFIX, _RESULT_TYPES)
#define BUFFERS CAT(ENTRY, _buffers)
#define RUN CAT(ENTRY, _run)

static void *allocate(size_t size) {
  /* aligned_alloc wants a size that is a multiple of the alignment */
  size_t rounded = (size + TEMP_ALIGNMENT - 1) / TEMP_ALIGNMENT * TEMP_ALIGNMENT;
  void *memory = aligned_alloc(TEMP_ALIGNMENT, rounded ? rounded : TEMP_ALIGNMENT);
  if (!memory) {
    fprintf(stderr, "error: cannot allocate %zu bytes\n", size);
    exit(1);
  }
  return memory;
}

static double seconds(void) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return now.tv_sec + now.tv_nsec * 1e-9;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s inputs.bin [outputs.bin] [repeat]\n", argv[0]);
    return 2;
  }
  int repeat = argc > 3 ? atoi(argv[3]) : 1;
  FILE *in = fopen(argv[1], "rb");
  if (!in) {
    fprintf(stderr, "error: cannot open %s\n", argv[1]);
    return 1;
  }
  BUFFERS b; /* one call's buffers (the header's convenience struct) */
  for (int i = 0; i < NUM_ARGS; ++i) {
    b.args[i] = allocate(ARG_BYTES[i]);
    if (fread(b.args[i], 1, ARG_BYTES[i], in) != ARG_BYTES[i]) {
      fprintf(stderr, "error: %s ends before argument %d (%zu bytes)\n", argv[1], i,
              ARG_BYTES[i]);
      return 1;
    }
  }
  if (fgetc(in) != EOF) {
    fprintf(stderr, "error: %s is longer than the %d arguments\n", argv[1], NUM_ARGS);
    return 1;
  }
  fclose(in);

  for (int i = 0; i < NUM_RESULTS; ++i) b.results[i] = allocate(RESULT_BYTES[i]);
  b.temp = TEMP_BYTES ? allocate(TEMP_BYTES) : NULL;

  RUN(&b); /* the first call also warms the caches */
  if (repeat > 1) {
    double start = seconds();
    for (int r = 0; r < repeat; ++r) RUN(&b);
    printf("time per call: %.6f ms (%d calls)\n", (seconds() - start) * 1e3 / repeat,
           repeat);
  }

  for (int i = 0; i < NUM_RESULTS; ++i) {
    printf("result%d: %s, %zu bytes", i, RESULT_TYPES[i], RESULT_BYTES[i]);
    if (strcmp(RESULT_TYPES[i], "f32") == 0) {
      const float *values = (const float *)b.results[i];
      size_t count = RESULT_BYTES[i] / sizeof(float);
      printf(":");
      for (size_t k = 0; k < count && k < 6; ++k) printf(" %g", values[k]);
      if (count > 6) printf(" ...");
    }
    printf("\n");
  }
  if (argc > 2) {
    FILE *out = fopen(argv[2], "wb");
    if (!out) {
      fprintf(stderr, "error: cannot write %s\n", argv[2]);
      return 1;
    }
    for (int i = 0; i < NUM_RESULTS; ++i) fwrite(b.results[i], 1, RESULT_BYTES[i], out);
    fclose(out);
  }
  return 0;
}
