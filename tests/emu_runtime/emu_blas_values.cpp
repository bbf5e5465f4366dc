/* emu_blas_values.cpp - the values of the emulated cuBLAS's products
 * (csrc/emu/emu_blas.cpp), half of tests/emu_runtime/emu_blas_test: every
 * supported combination of types, operations, gaps between columns and
 * matrices, alpha and beta, and TF32's loss of precision.
 *
 * Products are checked against a naive one in long double over the very
 * values stored (inputs are rounded to their type first), within the
 * error bound of the type's arithmetic: |got - exact| <= out_eps |exact| +
 * (k + 2) eps (|alpha| sum |a||b| + |beta||c|); the bytes between the
 * matrices of C must stay as they were.
 */
#include "emu_blas_test.h"

#include <cuda_runtime.h>

#include "scalar.h" /* csrc/core: float16 and bfloat16 conversions */

#include <cmath>
#include <complex>
#include <cstring>

/* ---- elements of any type, as long double complex ---- */

typedef std::complex<long double> Val;

static size_t esize(cudaDataType t)
{
    switch (t) {
    case CUDA_R_16F: case CUDA_R_16BF: return 2;
    case CUDA_R_32F: return 4;
    case CUDA_R_64F: case CUDA_C_32F: return 8;
    default: return 16;
    }
}
static bool is_complex(cudaDataType t) { return t == CUDA_C_32F || t == CUDA_C_64F; }

/* Store v (rounded to t) at p; return what was stored. */
static Val put(cudaDataType t, void *p, Val v)
{
    uint16_t h;
    float f[2] = {(float)v.real(), (float)v.imag()};
    double d[2] = {(double)v.real(), (double)v.imag()};
    switch (t) {
    case CUDA_R_16F: h = dt_float_to_half(f[0]); memcpy(p, &h, 2); return dt_half_to_float(h);
    case CUDA_R_16BF: h = dt_float_to_bf16(f[0]); memcpy(p, &h, 2); return dt_bf16_to_float(h);
    case CUDA_R_32F: memcpy(p, f, 4); return f[0];
    case CUDA_R_64F: memcpy(p, d, 8); return d[0];
    case CUDA_C_32F: memcpy(p, f, 8); return Val(f[0], f[1]);
    default: memcpy(p, d, 16); return Val(d[0], d[1]);
    }
}
static Val get(cudaDataType t, const void *p)
{
    uint16_t h;
    float f[2];
    double d[2];
    switch (t) {
    case CUDA_R_16F: memcpy(&h, p, 2); return dt_half_to_float(h);
    case CUDA_R_16BF: memcpy(&h, p, 2); return dt_bf16_to_float(h);
    case CUDA_R_32F: memcpy(f, p, 4); return f[0];
    case CUDA_R_64F: memcpy(d, p, 8); return d[0];
    case CUDA_C_32F: memcpy(f, p, 8); return Val(f[0], f[1]);
    default: memcpy(d, p, 16); return Val(d[0], d[1]);
    }
}
static long double mag(Val v) { return fabsl(v.real()) + fabsl(v.imag()); }

static uint64_t rng = 88172645463325252ull;
static double uniform() /* in [-1, 1) */
{
    rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
    return (double)(rng >> 11) / 4503599627370496.0 - 1.0;
}

/* ---- a batch of matrices on the device ---- */

/* batch x (rows x cols, leading dimension ld, stride between matrices)
 * of type t, host copy and device copy of exactly its extent. */
struct Mat {
    cudaDataType t;
    int rows, cols, ld, batch;
    long long stride;
    std::vector<unsigned char> host;
    void *dev = nullptr;
    size_t bytes() const { return host.size(); }
    size_t at(int i, int r, int c) const { return ((size_t)i * stride + (size_t)c * ld + r) * esize(t); }
};

static Mat make_mat(cudaDataType t, int rows, int cols, int ld, long long stride, int batch)
{
    Mat x{t, rows, cols, ld, batch, stride, {}, nullptr};
    size_t n = (size_t)(batch - 1) * stride + (size_t)(cols - 1) * ld + rows;
    x.host.assign(n * esize(t), 0x5A); /* the gaps keep this pattern */
    OK(cudaMalloc(&x.dev, x.bytes()));
    return x;
}
static void fill(Mat &x, bool nan = false)
{
    for (int i = 0; i < x.batch; i++)
        for (int c = 0; c < x.cols; c++)
            for (int r = 0; r < x.rows; r++)
                put(x.t, &x.host[x.at(i, r, c)], nan ? Val(NAN, NAN) : Val(uniform(), uniform()));
}
static void upload(Mat &x) { OK(cudaMemcpy(x.dev, x.host.data(), x.bytes(), cudaMemcpyHostToDevice)); }
static std::vector<unsigned char> download(const Mat &x)
{
    std::vector<unsigned char> v(x.bytes());
    OK(cudaMemcpy(v.data(), x.dev, v.size(), cudaMemcpyDeviceToHost));
    return v;
}

/* op(X)(r, c) of matrix i */
static Val op_at(const Mat &x, cublasOperation_t op, int i, int r, int c)
{
    Val v = op == CUBLAS_OP_N ? get(x.t, &x.host[x.at(i, r, c)]) : get(x.t, &x.host[x.at(i, c, r)]);
    return op == CUBLAS_OP_C ? std::conj(v) : v;
}

struct Scalars {
    unsigned char alpha[16], beta[16];
    Val a, b;
};

/* alpha and beta as the compute type's scalar */
static Scalars scalars(cublasComputeType_t ct, cudaDataType ab, Val a, Val b)
{
    Scalars s;
    cudaDataType st = ct == CUBLAS_COMPUTE_64F || ct == CUBLAS_COMPUTE_64F_PEDANTIC
                          ? (is_complex(ab) ? CUDA_C_64F : CUDA_R_64F)
                          : (is_complex(ab) ? CUDA_C_32F : CUDA_R_32F);
    s.a = put(st, s.alpha, a);
    s.b = put(st, s.beta, b);
    return s;
}

/* The exact product, C's old values, and the bound for its error. */
struct Expect {
    std::vector<Val> value;
    std::vector<long double> scale, bound;
};

static Expect expect(const Mat &A, cublasOperation_t ta, const Mat &B, cublasOperation_t tb, const Mat &C,
                     const Scalars &s, int k, long double out_eps, long double eps)
{
    Expect e;
    for (int i = 0; i < C.batch; i++)
        for (int c = 0; c < C.cols; c++)
            for (int r = 0; r < C.rows; r++) {
                Val acc = 0;
                long double scale = 0;
                for (int p = 0; p < k; p++) {
                    Val a = op_at(A, ta, i, r, p), b = op_at(B, tb, i, p, c);
                    acc += a * b;
                    scale += mag(a) * mag(b);
                }
                Val v = s.a * acc;
                scale *= mag(s.a);
                if (s.b != Val(0)) {
                    Val old = get(C.t, &C.host[C.at(i, r, c)]);
                    v += s.b * old;
                    scale += mag(s.b) * mag(old);
                }
                e.value.push_back(v);
                e.scale.push_back(scale);
                e.bound.push_back(out_eps * mag(v) + (k + 2) * eps * scale + 1e-30L);
            }
    return e;
}

/* Compare C on the device with e; its gaps must be untouched.  Returns
 * the largest error relative to the element's scale (|alpha| sum |a||b| +
 * |beta||c|), for comparisons of precision. */
static long double check(const Mat &C, const Expect &e, const char *what)
{
    std::vector<unsigned char> got = download(C);
    std::vector<bool> element(got.size(), false);
    size_t n = 0, bad = 0;
    long double worst = 0;
    for (int i = 0; i < C.batch; i++)
        for (int c = 0; c < C.cols; c++)
            for (int r = 0; r < C.rows; r++, n++) {
                size_t at = C.at(i, r, c);
                for (size_t b = 0; b < esize(C.t); b++)
                    element[at + b] = true;
                Val g = get(C.t, &got[at]);
                long double err = mag(g - e.value[n]);
                if (!(err <= e.bound[n]) && bad++ < 3)
                    printf("FAIL %s: C[%d](%d,%d) = (%.9Lg, %.9Lg), expected (%.9Lg, %.9Lg) within %.3Lg\n", what, i,
                           r, c, g.real(), g.imag(), e.value[n].real(), e.value[n].imag(), e.bound[n]);
                if (e.scale[n] > 0)
                    worst = std::max(worst, err / e.scale[n]);
            }
    for (size_t b = 0; b < got.size(); b++)
        if (!element[b] && got[b] != 0x5A && bad++ < 3)
            printf("FAIL %s: byte %zu between the matrices of C was written\n", what, b);
    failures += bad != 0;
    return worst;
}

/* One product C = alpha op(A) op(B) + beta C on fresh operands with gaps
 * (ld > rows, strides > one matrix), checked; returns check()'s worst. */
static long double product(cublasHandle_t h, cudaDataType ab, cudaDataType ct_, cublasComputeType_t ct,
                           cublasOperation_t ta, cublasOperation_t tb, int m, int n, int k, int batch, Val alpha,
                           Val beta, long double out_eps, long double eps, const char *what)
{
    int ar = ta == CUBLAS_OP_N ? m : k, ac = ta == CUBLAS_OP_N ? k : m;
    int br = tb == CUBLAS_OP_N ? k : n, bc = tb == CUBLAS_OP_N ? n : k;
    Mat A = make_mat(ab, ar, ac, ar + 2, (long long)(ar + 2) * ac + 3, batch);
    Mat B = make_mat(ab, br, bc, br + 1, (long long)(br + 1) * bc + 1, batch);
    Mat C = make_mat(ct_, m, n, m + 3, (long long)(m + 3) * n + 5, batch);
    fill(A), fill(B), fill(C, beta == Val(0)); /* beta == 0: NaN in C must not leak */
    upload(A), upload(B), upload(C);
    Scalars s = scalars(ct, ab, alpha, beta);
    Expect e = expect(A, ta, B, tb, C, s, k, out_eps, eps);
    BLAS_OK(cublasGemmStridedBatchedEx(h, ta, tb, m, n, k, s.alpha, A.dev, ab, A.ld, A.stride, B.dev, ab, B.ld,
                                       B.stride, s.beta, C.dev, ct_, C.ld, C.stride, batch, ct, CUBLAS_GEMM_DEFAULT));
    long double worst = check(C, e, what);
    OK(cudaFree(A.dev));
    OK(cudaFree(B.dev));
    OK(cudaFree(C.dev));
    return worst;
}

/* ---- the cases ---- */

struct Combo {
    const char *name;
    cudaDataType ab, c;
    cublasComputeType_t ct;
};

static const Combo combos[] = {
    {"r16f_r16f_32f", CUDA_R_16F, CUDA_R_16F, CUBLAS_COMPUTE_32F},
    {"r16f_r32f_32f", CUDA_R_16F, CUDA_R_32F, CUBLAS_COMPUTE_32F},
    {"r16f_r16f_32f_pedantic", CUDA_R_16F, CUDA_R_16F, CUBLAS_COMPUTE_32F_PEDANTIC},
    {"r16bf_r16bf_32f", CUDA_R_16BF, CUDA_R_16BF, CUBLAS_COMPUTE_32F},
    {"r16bf_r32f_32f", CUDA_R_16BF, CUDA_R_32F, CUBLAS_COMPUTE_32F},
    {"r32f_32f", CUDA_R_32F, CUDA_R_32F, CUBLAS_COMPUTE_32F},
    {"r32f_32f_pedantic", CUDA_R_32F, CUDA_R_32F, CUBLAS_COMPUTE_32F_PEDANTIC},
    {"r32f_32f_fast_tf32", CUDA_R_32F, CUDA_R_32F, CUBLAS_COMPUTE_32F_FAST_TF32},
    {"r64f_64f", CUDA_R_64F, CUDA_R_64F, CUBLAS_COMPUTE_64F},
    {"r64f_64f_pedantic", CUDA_R_64F, CUDA_R_64F, CUBLAS_COMPUTE_64F_PEDANTIC},
    {"c32f_32f", CUDA_C_32F, CUDA_C_32F, CUBLAS_COMPUTE_32F},
    {"c32f_32f_pedantic", CUDA_C_32F, CUDA_C_32F, CUBLAS_COMPUTE_32F_PEDANTIC},
    {"c32f_32f_fast_tf32", CUDA_C_32F, CUDA_C_32F, CUBLAS_COMPUTE_32F_FAST_TF32},
    {"c64f_64f", CUDA_C_64F, CUDA_C_64F, CUBLAS_COMPUTE_64F},
    {"c64f_64f_pedantic", CUDA_C_64F, CUDA_C_64F, CUBLAS_COMPUTE_64F_PEDANTIC},
};

/* every op pair, batches of 3, beta != 0 and beta == 0 (NaN in C) */
static void run_combo(const Combo &c)
{
    bool dbl = c.ct == CUBLAS_COMPUTE_64F || c.ct == CUBLAS_COMPUTE_64F_PEDANTIC;
    long double eps = dbl ? ldexpl(1, -53) : ldexpl(1, -24);
    if (c.ct == CUBLAS_COMPUTE_32F_FAST_TF32)
        eps = ldexpl(1, -10); /* two inputs rounded to TF32 per product, plus float's own */
    long double out_eps = c.c == CUDA_R_16F ? ldexpl(1, -11) : c.c == CUDA_R_16BF ? ldexpl(1, -8) : 0;
    bool cx = is_complex(c.ab);
    Val alpha = cx ? Val(1.5, -0.25) : Val(1.5), beta = cx ? Val(-0.5, 0.75) : Val(-0.5);
    cublasHandle_t h = handle();
    const cublasOperation_t ops[] = {CUBLAS_OP_N, CUBLAS_OP_T, CUBLAS_OP_C};
    for (cublasOperation_t ta : ops)
        for (cublasOperation_t tb : ops)
            for (Val b : {beta, Val(0)}) {
                char what[128];
                snprintf(what, sizeof what, "%s op %d,%d beta %s", c.name, (int)ta, (int)tb,
                         b == Val(0) ? "0" : "!= 0");
                product(h, c.ab, c.c, c.ct, ta, tb, 5, 4, 7, 3, alpha, b, out_eps, eps, what);
            }
    product(h, c.ab, c.c, c.ct, CUBLAS_OP_N, CUBLAS_OP_N, 1, 1, 1, 1, alpha, beta, out_eps, eps, "1x1x1");
    product(h, c.ab, c.c, c.ct, CUBLAS_OP_T, CUBLAS_OP_N, 33, 17, 65, 2, alpha, beta, out_eps, eps, "33x17x65");
    BLAS_OK(cublasDestroy(h));
}

/* Gemm of 1 x 1 x 1 float: a * b on the handle's stream, synchronised. */
static float tiny(cublasHandle_t h, float a, float b, cublasComputeType_t ct)
{
    float *d = nullptr, alpha = 1, beta = 0, in[2] = {a, b}, out = -1;
    OK(cudaMalloc((void **)&d, 3 * sizeof(float)));
    OK(cudaMemcpy(d, in, sizeof in, cudaMemcpyHostToDevice));
    BLAS_OK(cublasGemmStridedBatchedEx(h, CUBLAS_OP_N, CUBLAS_OP_N, 1, 1, 1, &alpha, d, CUDA_R_32F, 1, 0, d + 1,
                                       CUDA_R_32F, 1, 0, &beta, d + 2, CUDA_R_32F, 1, 0, 1, ct, CUBLAS_GEMM_DEFAULT));
    OK(cudaMemcpy(&out, d + 2, sizeof out, cudaMemcpyDeviceToHost));
    OK(cudaFree(d));
    return out;
}

static void case_tf32()
{
    cublasHandle_t h = handle();
    const float u = ldexpf(1, -12), half = ldexpf(1, -11);
    EXPECT(tiny(h, 1 + u, 1, CUBLAS_COMPUTE_32F) == 1 + u);
    EXPECT(tiny(h, 1 + u, 1, CUBLAS_COMPUTE_32F_PEDANTIC) == 1 + u);
    EXPECT(tiny(h, 1 + u, 1, CUBLAS_COMPUTE_32F_FAST_TF32) == 1);                   /* 10 mantissa bits */
    EXPECT(tiny(h, 1 + half, 1, CUBLAS_COMPUTE_32F_FAST_TF32) == 1);                /* a tie: to even */
    EXPECT(tiny(h, 1 + 3 * half, 1, CUBLAS_COMPUTE_32F_FAST_TF32) == 1 + 4 * half); /* a tie: to even */
    EXPECT(tiny(h, 1 + 3 * u, 1, CUBLAS_COMPUTE_32F_FAST_TF32) == 1 + 2 * half);    /* above half: up */
    EXPECT(tiny(h, 1 + u, 1 + u, CUBLAS_COMPUTE_32F_FAST_TF32) == 1);               /* B too */
    EXPECT(std::isinf(tiny(h, INFINITY, 1, CUBLAS_COMPUTE_32F_FAST_TF32)));
    EXPECT(std::isnan(tiny(h, NAN, 1, CUBLAS_COMPUTE_32F_FAST_TF32)));
    /* the math mode does not turn an explicit COMPUTE_32F into TF32 (Note [Math modes]) */
    BLAS_OK(cublasSetMathMode(h, CUBLAS_TF32_TENSOR_OP_MATH));
    EXPECT(tiny(h, 1 + u, 1, CUBLAS_COMPUTE_32F) == 1 + u);
    BLAS_OK(cublasSetMathMode(h, CUBLAS_DEFAULT_MATH));
    /* on random float inputs TF32 is visibly less precise than float, and within its bound */
    long double f32 = product(h, CUDA_R_32F, CUDA_R_32F, CUBLAS_COMPUTE_32F, CUBLAS_OP_N, CUBLAS_OP_T, 16, 16, 64,
                              1, 1, 0, 0, ldexpl(1, -24), "float");
    long double t32 = product(h, CUDA_R_32F, CUDA_R_32F, CUBLAS_COMPUTE_32F_FAST_TF32, CUBLAS_OP_N, CUBLAS_OP_T, 16,
                              16, 64, 1, 1, 0, 0, ldexpl(1, -10), "tf32");
    printf("worst error relative to the scale: float %.3Lg, tf32 %.3Lg\n", f32, t32);
    EXPECT(t32 > 30 * f32 && t32 > 1e-5L && f32 < 1e-5L);
    BLAS_OK(cublasDestroy(h));
}
std::vector<Case> value_cases()
{
    std::vector<Case> v{{"tf32", case_tf32}};
    for (const Combo &c : combos)
        v.push_back(Case{std::string("gemm_") + c.name, [&c] { run_combo(c); }});
    return v;
}
