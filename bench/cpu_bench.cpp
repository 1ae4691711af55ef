// CPU sort benchmark: vksort's OpenMP radix sort against qsort, std::sort, std::stable_sort,
// __gnu_parallel::sort and tbb::parallel_sort on u32 pairs, u32 keys and f32 pairs.
// Each measurement: fresh data per run (restored from a pristine copy outside the timed region),
// median of the runs, result checked sorted. Prints a table (ms and ratio of each sorter to
// vksort) and optionally writes CSV. Progress goes to stderr.
#include "vksort/cpu.h"

#include <parallel/algorithm>
#include <tbb/global_control.h>
#include <tbb/parallel_sort.h>

#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <functional>
#include <string>
#include <vector>

#include <sys/mman.h>

namespace {

// Allocator for every sorter's arrays: 2 MiB aligned and advised for transparent huge pages
// (kernels with THP in "madvise" mode, like the GPU machine's, otherwise back large arrays with
// 4 KiB pages, and a radix scatter to thousands of destinations then misses the TLB on every
// line). All sorters get the same memory, so the comparison stays fair.
template <class T> struct HugeAlloc {
    using value_type = T;
    HugeAlloc() = default;
    template <class U> HugeAlloc(const HugeAlloc<U> &) {}
    T *allocate(size_t n)
    {
        const size_t align = (size_t)2 << 20;
        size_t bytes = (n * sizeof(T) + align - 1) / align * align;
        void *p = std::aligned_alloc(align, bytes ? bytes : align);
        if (!p)
            throw std::bad_alloc();
#ifdef MADV_HUGEPAGE
        madvise(p, bytes, MADV_HUGEPAGE);
#endif
        return static_cast<T *>(p);
    }
    void deallocate(T *p, size_t) { std::free(p); }
    template <class U> bool operator==(const HugeAlloc<U> &) const { return true; }
    template <class U> bool operator!=(const HugeAlloc<U> &) const { return false; }
};
template <class T> using hvec = std::vector<T, HugeAlloc<T>>;

struct Pair32 {
    uint32_t key;
    uint32_t value;
};
struct PairF {
    float key;
    uint32_t value;
};

enum class Workload { U32Pairs, U32Keys, F32Pairs };
const char *workload_name(Workload w)
{
    switch (w) {
    case Workload::U32Pairs: return "u32 pairs";
    case Workload::U32Keys: return "u32 keys";
    case Workload::F32Pairs: return "f32 pairs";
    }
    return "?";
}

uint64_t splitmix(uint64_t &s)
{
    uint64_t z = (s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

// Structure-of-arrays data as vksort takes it; AoS copies are made for the comparison sorts.
struct Data {
    std::vector<uint32_t> keys;  // u32 bits or f32 bits
    std::vector<uint32_t> values;
};

Data make_data(Workload w, size_t n, uint64_t seed)
{
    Data d;
    d.keys.resize(n);
    if (w != Workload::U32Keys)
        d.values.resize(n);
    uint64_t s = seed;
    for (size_t i = 0; i < n; ++i) {
        uint64_t r = splitmix(s);
        if (w == Workload::F32Pairs) {
            float f = (float)((double)(r >> 11) / 9007199254740992.0 * 2.0 - 1.0);  // [-1, 1)
            std::memcpy(&d.keys[i], &f, 4);
        } else {
            d.keys[i] = (uint32_t)r;
        }
        if (!d.values.empty())
            d.values[i] = (uint32_t)i;
    }
    return d;
}

double now_ms()
{
    return std::chrono::duration<double, std::milli>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

// One sorter: prepare (untimed) copies data into its own layout, run (timed) sorts, check
// (untimed) verifies the order.
struct Sorter {
    const char *name;
    std::function<void(const Data &)> prepare;
    std::function<void()> run;
    std::function<bool()> check;
};

template <class V> bool is_sorted_by_key(const V &v)
{
    for (size_t i = 1; i < v.size(); ++i)
        if (v[i].key < v[i - 1].key)
            return false;
    return true;
}

int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}
int cmp_pair32(const void *a, const void *b)
{
    uint32_t x = ((const Pair32 *)a)->key, y = ((const Pair32 *)b)->key;
    return (x > y) - (x < y);
}
int cmp_pairf(const void *a, const void *b)
{
    float x = ((const PairF *)a)->key, y = ((const PairF *)b)->key;
    return (x > y) - (x < y);
}

struct State {
    Workload w;
    hvec<uint32_t> keys, values;
    hvec<uint32_t> scratch_bytes;  // vksort scratch (reused across runs, like a frame)
    hvec<Pair32> p32;
    hvec<PairF> pf;
};

std::vector<Sorter> make_sorters(State &st)
{
    auto prep_soa = [&st](const Data &d) {
        st.keys.assign(d.keys.begin(), d.keys.end());
        st.values.assign(d.values.begin(), d.values.end());
    };
    auto prep_aos = [&st](const Data &d) {
        size_t n = d.keys.size();
        if (st.w == Workload::F32Pairs) {
            st.pf.resize(n);
            for (size_t i = 0; i < n; ++i) {
                std::memcpy(&st.pf[i].key, &d.keys[i], 4);
                st.pf[i].value = d.values[i];
            }
        } else if (st.w == Workload::U32Pairs) {
            st.p32.resize(n);
            for (size_t i = 0; i < n; ++i)
                st.p32[i] = {d.keys[i], d.values[i]};
        } else {
            st.keys.assign(d.keys.begin(), d.keys.end());
        }
    };
    auto check_aos = [&st]() {
        if (st.w == Workload::F32Pairs)
            return is_sorted_by_key(st.pf);
        if (st.w == Workload::U32Pairs)
            return is_sorted_by_key(st.p32);
        return std::is_sorted(st.keys.begin(), st.keys.end());
    };
    auto by_key = [](const auto &a, const auto &b) { return a.key < b.key; };

    std::vector<Sorter> s;
    s.push_back({"vksort-cpu", prep_soa,
                 [&st]() {
                     vksort_cpu_sort_info info = {};
                     info.key_type = st.w == Workload::F32Pairs ? VKSORT_KEY_F32 : VKSORT_KEY_U32;
                     info.count = st.keys.size();
                     info.keys = st.keys.data();
                     info.values = st.values.empty() ? nullptr : st.values.data();
                     // Tuning experiments: VKSORT_CPU_DIGIT_BITS=8..11 overrides the digit width.
                     if (const char *bits = std::getenv("VKSORT_CPU_DIGIT_BITS"))
                         info.digit_bits = (uint32_t)std::atoi(bits);
                     size_t need = vksort_cpu_scratch_size(&info);
                     if (st.scratch_bytes.size() * 4 < need)
                         st.scratch_bytes.resize(need / 4 + 16);
                     info.scratch = st.scratch_bytes.data();
                     info.scratch_size = st.scratch_bytes.size() * 4;
                     if (vksort_cpu_sort(&info) != VKSORT_SUCCESS)
                         std::abort();
                 },
                 [&st]() {
                     if (st.w == Workload::F32Pairs) {
                         for (size_t i = 1; i < st.keys.size(); ++i) {
                             float a, b;
                             std::memcpy(&a, &st.keys[i - 1], 4);
                             std::memcpy(&b, &st.keys[i], 4);
                             if (b < a)
                                 return false;
                         }
                         return true;
                     }
                     return std::is_sorted(st.keys.begin(), st.keys.end());
                 }});
    s.push_back({"qsort", prep_aos,
                 [&st]() {
                     if (st.w == Workload::F32Pairs)
                         std::qsort(st.pf.data(), st.pf.size(), sizeof(PairF), cmp_pairf);
                     else if (st.w == Workload::U32Pairs)
                         std::qsort(st.p32.data(), st.p32.size(), sizeof(Pair32), cmp_pair32);
                     else
                         std::qsort(st.keys.data(), st.keys.size(), 4, cmp_u32);
                 },
                 check_aos});
    s.push_back({"std::sort", prep_aos,
                 [&st, by_key]() {
                     if (st.w == Workload::F32Pairs)
                         std::sort(st.pf.begin(), st.pf.end(), by_key);
                     else if (st.w == Workload::U32Pairs)
                         std::sort(st.p32.begin(), st.p32.end(), by_key);
                     else
                         std::sort(st.keys.begin(), st.keys.end());
                 },
                 check_aos});
    s.push_back({"std::stable_sort", prep_aos,
                 [&st, by_key]() {
                     if (st.w == Workload::F32Pairs)
                         std::stable_sort(st.pf.begin(), st.pf.end(), by_key);
                     else if (st.w == Workload::U32Pairs)
                         std::stable_sort(st.p32.begin(), st.p32.end(), by_key);
                     else
                         std::stable_sort(st.keys.begin(), st.keys.end());
                 },
                 check_aos});
    s.push_back({"gnu_parallel::sort", prep_aos,
                 [&st, by_key]() {
                     if (st.w == Workload::F32Pairs)
                         __gnu_parallel::sort(st.pf.begin(), st.pf.end(), by_key);
                     else if (st.w == Workload::U32Pairs)
                         __gnu_parallel::sort(st.p32.begin(), st.p32.end(), by_key);
                     else
                         __gnu_parallel::sort(st.keys.begin(), st.keys.end());
                 },
                 check_aos});
    s.push_back({"tbb::parallel_sort", prep_aos,
                 [&st, by_key]() {
                     if (st.w == Workload::F32Pairs)
                         tbb::parallel_sort(st.pf.begin(), st.pf.end(), by_key);
                     else if (st.w == Workload::U32Pairs)
                         tbb::parallel_sort(st.p32.begin(), st.p32.end(), by_key);
                     else
                         tbb::parallel_sort(st.keys.begin(), st.keys.end());
                 },
                 check_aos});
    return s;
}

void usage()
{
    std::fprintf(stderr,
                 "usage: vksort-cpu-bench [--min-log2 K] [--max-log2 K] [--runs R] [--max-seconds S]\n"
                 "                        [--only NAME[,NAME...]] [--csv FILE]\n"
                 "  n = 2^min .. 2^max (default 16..26); R runs per cell (default 7, at least 3;\n"
                 "  fewer when a cell would exceed S seconds, default 20); median reported.\n");
}

}  // namespace

int main(int argc, char **argv)
{
    int min_log2 = 16, max_log2 = 26, runs = 7;
    double max_seconds = 20.0;
    std::string only, csv_path;
    for (int i = 1; i < argc; ++i) {
        std::string a = argv[i];
        auto next = [&]() -> const char * {
            if (i + 1 >= argc) {
                usage();
                std::exit(2);
            }
            return argv[++i];
        };
        if (a == "--min-log2") min_log2 = std::atoi(next());
        else if (a == "--max-log2") max_log2 = std::atoi(next());
        else if (a == "--runs") runs = std::atoi(next());
        else if (a == "--max-seconds") max_seconds = std::atof(next());
        else if (a == "--only") only = next();
        else if (a == "--csv") csv_path = next();
        else { usage(); return 2; }
    }
    if (min_log2 < 1 || max_log2 > 31 || min_log2 > max_log2 || runs < 1) {
        usage();
        return 2;
    }
    // TBB follows the same thread count as OpenMP so the comparison is like for like.
    int threads = omp_get_max_threads();
    tbb::global_control tbb_threads(tbb::global_control::max_allowed_parallelism, (size_t)threads);

    FILE *csv = csv_path.empty() ? nullptr : std::fopen(csv_path.c_str(), "w");
    if (!csv_path.empty() && !csv) {
        std::fprintf(stderr, "vksort-cpu-bench: cannot write %s\n", csv_path.c_str());
        return 1;
    }
    if (csv)
        std::fprintf(csv, "workload,n,sorter,threads,median_ms,runs,mkeys_per_s\n");
    std::printf("threads: %d (OMP_NUM_THREADS)\n", threads);

    bool all_ok = true;
    const Workload workloads[] = {Workload::U32Pairs, Workload::U32Keys, Workload::F32Pairs};
    for (Workload w : workloads) {
        State st;
        st.w = w;
        std::vector<Sorter> sorters = make_sorters(st);
        std::printf("\n%s: median ms (ratio to vksort-cpu)\n%-10s", workload_name(w), "n");
        for (const Sorter &s : sorters)
            if (only.empty() || only.find(s.name) != std::string::npos)
                std::printf(" %20s", s.name);
        std::printf("\n");
        for (int lg = min_log2; lg <= max_log2; ++lg) {
            size_t n = (size_t)1 << lg;
            std::printf("2^%-8d", lg);
            std::fflush(stdout);
            double vk_ms = 0;
            for (Sorter &s : sorters) {
                if (!only.empty() && only.find(s.name) == std::string::npos)
                    continue;
                std::vector<double> times;
                double spent = 0;
                for (int r = 0; r < runs; ++r) {
                    if (r >= 3 && spent > max_seconds * 1000.0)
                        break;
                    Data d = make_data(w, n, 1234 + (uint64_t)r);
                    s.prepare(d);
                    double t0 = now_ms();
                    s.run();
                    double t = now_ms() - t0;
                    spent += t;
                    times.push_back(t);
                    if (!s.check()) {
                        std::fprintf(stderr, "\n%s produced unsorted output at n=%zu\n", s.name, n);
                        all_ok = false;
                    }
                }
                std::sort(times.begin(), times.end());
                double med = times[times.size() / 2];
                if (std::strcmp(s.name, "vksort-cpu") == 0)
                    vk_ms = med;
                if (vk_ms > 0 && std::strcmp(s.name, "vksort-cpu") != 0)
                    std::printf(" %11.2f (%5.2fx)", med, med / vk_ms);
                else
                    std::printf(" %20.2f", med);
                std::fflush(stdout);
                std::fprintf(stderr, "  [%s n=2^%d %s: %.2f ms x%zu]\n", workload_name(w), lg,
                             s.name, med, times.size());
                if (csv)
                    std::fprintf(csv, "%s,%zu,%s,%d,%.4f,%zu,%.2f\n", workload_name(w), n, s.name,
                                 threads, med, times.size(), (double)n / med / 1000.0);
            }
            std::printf("\n");
        }
    }
    if (csv)
        std::fclose(csv);
    return all_ok ? 0 : 1;
}
