/* cpu_random.h - the CPU's random draws for a block of consecutive
 * counters: element j is philox.h's draw for counter + j, bit for bit (normals
 * to the last bit or two; Note [Philox in blocks] in cpu_random.c). */
#ifndef DT_CPU_RANDOM_H
#define DT_CPU_RANDOM_H

#include <stdint.h>

#include "philox.h"

/* out[j] = dt_philox_uniform(seed, counter + j, bits, low, high); words
 * (and words2): scratch of n words each */
void dt_cpu_philox_uniform(uint64_t seed, uint64_t counter, int64_t n, int bits, double low, double high,
                           double *out, uint64_t *words);
/* out[j] = dt_philox_normal(seed, counter + j, mean, std), with vector log and cos
 * (to the last bit or two: Note [Normals through vector math] in cpu_random.c) */
void dt_cpu_philox_normal(uint64_t seed, uint64_t counter, int64_t n, double mean, double std, double *out,
                          uint64_t *words, uint64_t *words2);
/* out[j] = dt_philox_randint(seed, counter + j, low, high), high > low */
void dt_cpu_philox_randint(uint64_t seed, uint64_t counter, int64_t n, int64_t low, int64_t high, int64_t *out,
                           uint64_t *words);

#endif /* DT_CPU_RANDOM_H */
