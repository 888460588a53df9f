/*
 * bench_plot.c - pshm-pingpong's SVG and gnuplot plots.
 */
#include "common/misc.h"
#include "tools/util/bench_plot.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define KiB (1024ull)
#define MiB (1024ull * 1024)

/* The results being plotted. */
static const bench_result_t *res;
static size_t nres;

/* The few functions of libm the output needs (the tools link libc only). */
static double xmin2(double a, double b) { return a < b ? a : b; }
static double xmax2(double a, double b) { return a > b ? a : b; }
static double xfloor(double x) { double t = (double)(long long)x; return t > x ? t - 1 : t; }
static double xceil(double x) { double t = (double)(long long)x; return t < x ? t + 1 : t; }

/* log2 for x > 0: exponent by halving, then ln of the mantissa by the atanh series. */
static double xlog2(double x)
{
    int e = 0;
    while (x >= 2) x /= 2, e++;
    while (x < 1) x *= 2, e--;
    double z = (x - 1) / (x + 1), z2 = z * z, term = z, sum = 0;
    for (int k = 1; k < 40; k += 2, term *= z2) sum += term / k;
    return e + 2 * sum / 0.69314718055994530942;
}
static double xlog10(double x) { return xlog2(x) * 0.30102999566398119521; }
/* b**k for an integer k. */
static double xpowi(double b, long k)
{
    double r = 1;
    for (long i = 0; i < (k < 0 ? -k : k); i++) r *= b;
    return k < 0 ? 1 / r : r;
}

static const char *const palette[] = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e",
                                      "#8c564b", "#e377c2", "#17becf", "#7f7f7f", "#bcbd22"};

/* The tests of one panel: latency ("us") or bandwidth ("GB/s"); size 0 has no
 * place on a log axis and is left out. */
static int series_of(const char *unit, const char *names[], int max)
{
    int n = 0;
    for (size_t i = 0; i < nres; i++) {
        if (strcmp(res[i].row.unit, unit) != 0 || res[i].row.size == 0 || res[i].row.size == BENCH_NO_SIZE)
            continue;
        int seen = 0;
        for (int k = 0; k < n; k++) seen |= strcmp(names[k], res[i].test) == 0;
        if (!seen && n < max) names[n++] = res[i].test;
    }
    return n;
}

static int write_svg(const char *file, const char *unit, const char *ylabel, const char *title)
{
    const char *names[16];
    int ns = series_of(unit, names, 16);
    double xmin = 1e300, xmax = -1e300, ymin = 1e300, ymax = -1e300;
    for (size_t i = 0; i < nres; i++) {
        const bench_result_t *r = &res[i];
        if (strcmp(r->row.unit, unit) != 0 || r->row.size == 0 || r->row.size == BENCH_NO_SIZE ||
            r->row.median <= 0)
            continue;
        double x = xlog2((double)r->row.size), y = xlog10(r->row.median);
        xmin = xmin2(xmin, x), xmax = xmax2(xmax, x), ymin = xmin2(ymin, y), ymax = xmax2(ymax, y);
    }
    FILE *f = fopen(file, "w");
    if (!f) {
        fprintf(stderr, "pshm-pingpong: cannot write %s: %s\n", file, strerror(errno));
        return -1;
    }
    const double W = 900, H = 520, L = 80, R = 230, T = 40, B = 60, pw = W - L - R, ph = H - T - B;
    if (ns == 0) xmin = 0, xmax = 1, ymin = 0, ymax = 1;
    xmin = xfloor(xmin), xmax = xceil(xmax);
    if (xmax <= xmin) xmax = xmin + 1;
    ymin = xfloor(ymin), ymax = xceil(ymax);
    if (ymax <= ymin) ymax = ymin + 1;
#define PX(x) (L + ((x) - xmin) / (xmax - xmin) * pw)
#define PY(y) (T + ph - ((y) - ymin) / (ymax - ymin) * ph)
    fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
               "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
               "font-family=\"sans-serif\" font-size=\"12\">\n"
               "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n"
               "<text x=\"%.0f\" y=\"24\" font-size=\"15\" text-anchor=\"middle\">%s</text>\n",
            W, H, L + pw / 2, title);
    fprintf(f, "<rect x=\"%.0f\" y=\"%.0f\" width=\"%.0f\" height=\"%.0f\" fill=\"none\" stroke=\"black\"/>\n",
            L, T, pw, ph);
    for (double x = xmin; x <= xmax; x++) {
        double v = xpowi(2, (long)x);
        char lab[32];
        if (v >= MiB) snprintf(lab, sizeof lab, "%.0fM", v / MiB);
        else if (v >= KiB) snprintf(lab, sizeof lab, "%.0fK", v / KiB);
        else snprintf(lab, sizeof lab, "%.0f", v);
        fprintf(f, "<line x1=\"%.1f\" y1=\"%.0f\" x2=\"%.1f\" y2=\"%.0f\" stroke=\"#ddd\"/>\n", PX(x), T,
                PX(x), T + ph);
        if (xmax - xmin <= 12 || ((long)(x - xmin)) % 2 == 0)
            fprintf(f, "<text x=\"%.1f\" y=\"%.0f\" text-anchor=\"middle\">%s</text>\n", PX(x),
                    T + ph + 18, lab);
    }
    for (double y = ymin; y <= ymax; y++) {
        fprintf(f, "<line x1=\"%.0f\" y1=\"%.1f\" x2=\"%.0f\" y2=\"%.1f\" stroke=\"#ddd\"/>\n", L, PY(y),
                L + pw, PY(y));
        fprintf(f, "<text x=\"%.0f\" y=\"%.1f\" text-anchor=\"end\">%g</text>\n", L - 6, PY(y) + 4,
                xpowi(10, (long)y));
    }
    fprintf(f, "<text x=\"%.0f\" y=\"%.0f\" text-anchor=\"middle\">message size (bytes, log2 scale)</text>\n",
            L + pw / 2, H - 18);
    fprintf(f, "<text transform=\"translate(20 %.0f) rotate(-90)\" text-anchor=\"middle\">%s (log scale)</text>\n",
            T + ph / 2, ylabel);
    for (int s = 0; s < ns; s++) {
        const char *color = palette[s % ARRAY_LEN(palette)];
        int limit = strncmp(names[s], "limit-", 6) == 0;
        const char *dash = limit ? " stroke-dasharray=\"6,4\"" : "";
        int npts = 0;
        double lasty = 0;
        fprintf(f, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\"%s points=\"", color, dash);
        for (size_t i = 0; i < nres; i++) {
            const bench_result_t *r = &res[i];
            if (strcmp(r->test, names[s]) != 0 || r->row.size == 0 || r->row.size == BENCH_NO_SIZE ||
                r->row.median <= 0)
                continue;
            lasty = xlog10(r->row.median);
            fprintf(f, "%.1f,%.1f ", PX(xlog2((double)r->row.size)), PY(lasty));
            npts++;
        }
        if (npts == 1 && limit) /* a single-size limit: a level across the panel */
            fprintf(f, "%.1f,%.1f %.1f,%.1f", L, PY(lasty), L + pw, PY(lasty));
        fprintf(f, "\"/>\n");
        for (size_t i = 0; i < nres && !limit; i++) {
            const bench_result_t *r = &res[i];
            if (strcmp(r->test, names[s]) != 0 || r->row.size == 0 || r->row.size == BENCH_NO_SIZE ||
                r->row.median <= 0)
                continue;
            fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"%s\"/>\n",
                    PX(xlog2((double)r->row.size)),
                    PY(xlog10(r->row.median)), color);
        }
        double ly = T + 10 + 20 * s;
        fprintf(f, "<line x1=\"%.0f\" y1=\"%.0f\" x2=\"%.0f\" y2=\"%.0f\" stroke=\"%s\" stroke-width=\"2\"%s/>\n",
                L + pw + 15, ly, L + pw + 45, ly, color, dash);
        fprintf(f, "<text x=\"%.0f\" y=\"%.0f\">%s</text>\n", L + pw + 52, ly + 4, names[s]);
    }
#undef PX
#undef PY
    fprintf(f, "</svg>\n");
    if (fclose(f) != 0) {
        fprintf(stderr, "pshm-pingpong: cannot write %s: %s\n", file, strerror(errno));
        return -1;
    }
    return 0;
}

/* A gnuplot string literal: in single quotes nothing is special but the
 * quote itself, written twice; a line break would end the command, so it
 * becomes a space. */
static void gp_str(FILE *p, const char *s)
{
    fputc('\'', p);
    for (; *s; s++) {
        if (*s == '\'') fputs("''", p);
        else if (*s == '\n' || *s == '\r') fputc(' ', p);
        else fputc(*s, p);
    }
    fputc('\'', p);
}

static int write_png(const char *file, const char *unit, const char *ylabel, const char *title)
{
    const char *names[16];
    int ns = series_of(unit, names, 16);
    FILE *p = popen("gnuplot", "w");
    if (!p) {
        fprintf(stderr, "pshm-pingpong: cannot run gnuplot: %s\n", strerror(errno));
        return -1;
    }
    /* noenhanced: no character of a title or name is markup */
    fprintf(p, "set terminal pngcairo size 900,520 noenhanced\nset output ");
    gp_str(p, file);
    fprintf(p, "\nset title ");
    gp_str(p, title);
    fprintf(p, "\nset logscale x 2\nset logscale y\nset xlabel 'message size (bytes)'\nset ylabel ");
    gp_str(p, ylabel);
    fprintf(p, "\nset key outside right\nset grid\n");
    /* The panel's size range: a limit measured at one size only is drawn
     * as a level across it (one point would draw no line). */
    unsigned long long lo = 0, hi = 0;
    for (size_t i = 0; i < nres; i++) {
        unsigned long long z = res[i].row.size;
        if (strcmp(res[i].row.unit, unit) != 0 || z == 0 || z == BENCH_NO_SIZE) continue;
        if (lo == 0 || z < lo) lo = z;
        if (z > hi) hi = z;
    }
    /* Tics at powers of 4 labelled 1, 4, ... 1K, 4K, ... 1M: gnuplot's own
     * read 1.04858e+06 at 1 MiB and overlapped their neighbours. */
    if (hi > lo) {
        /* Steps of 4, or of 2 over a range of a few powers. */
        unsigned long long step = hi / lo > 64 ? 4 : 2;
        fprintf(p, "set format y '%%g'\nset xtics (");
        int first = 1;
        for (unsigned long long t = 1; t <= hi * 2 && t != 0; t *= step) {
            if (t * step < lo) continue;
            const char *suf = t >= MiB ? "M" : t >= KiB ? "K" : "";
            unsigned long long v = t >= MiB ? t / MiB : t >= KiB ? t / KiB : t;
            fprintf(p, "%s'%llu%s' %llu", first ? "" : ", ", v, suf, t);
            first = 0;
        }
        fprintf(p, ")\n");
    }
    if (ns == 0) fprintf(p, "set xrange [1:2]\nplot 1/0 notitle\n");
    for (int s = 0; s < ns; s++) {
        fprintf(p, "%s'-' with %s title ", s ? ", " : "plot ",
                strncmp(names[s], "limit-", 6) == 0 ? "lines dashtype 2 lw 2" : "linespoints lw 2");
        gp_str(p, names[s]);
        fputs(s + 1 < ns ? "" : "\n", p);
    }
    for (int s = 0; s < ns; s++) {
        int npts = 0;
        double y = 0;
        for (size_t i = 0; i < nres; i++)
            if (strcmp(res[i].test, names[s]) == 0 && res[i].row.size > 0 && res[i].row.size != BENCH_NO_SIZE) {
                fprintf(p, "%llu %g\n", (unsigned long long)res[i].row.size, res[i].row.median);
                y = res[i].row.median;
                npts++;
            }
        if (npts == 1 && strncmp(names[s], "limit-", 6) == 0 && hi > lo)
            fprintf(p, "%llu %g\n%llu %g\n", lo, y, hi, y);
        fprintf(p, "e\n");
    }
    int st = pclose(p);
    if (st != 0) {
        fprintf(stderr, "pshm-pingpong: gnuplot failed writing %s (status %d)\n", file, st);
        return -1;
    }
    return 0;
}

int bench_plot_is_png(const char *file)
{
    size_t a = strlen(file), b = strlen(".png");
    return a >= b && strcmp(file + a - b, ".png") == 0;
}

/* The bandwidth plot's name: `file` with "-bw" before the extension. */
static int bw_name(const char *file, char *bw, size_t n)
{
    const char *dot = strrchr(file, '.'), *slash = strrchr(file, '/');
    if (!dot || (slash && dot < slash)) dot = file + strlen(file);
    if (snprintf(bw, n, "%.*s-bw%s", (int)(dot - file), file, dot) >= (int)n) {
        fprintf(stderr, "pshm-pingpong: --plot name too long\n");
        return -1;
    }
    return 0;
}

/* Can `path` be written (created in its directory, or rewritten)? */
static int writable(const char *path)
{
    char dir[TOOL_PATH_MAX];
    const char *slash = strrchr(path, '/');

    if (access(path, F_OK) == 0)
        return access(path, W_OK) == 0 ? 0 : -errno;
    if (slash == NULL)
        snprintf(dir, sizeof dir, ".");
    else if (slash == path)
        snprintf(dir, sizeof dir, "/");
    else
        snprintf(dir, sizeof dir, "%.*s", (int)(slash - path), path);
    return access(dir, W_OK | X_OK) == 0 ? 0 : -errno;
}

int bench_plot_check(const char *file)
{
    char bw[TOOL_PATH_MAX];
    const char *names[] = {file, bw};

    if (bw_name(file, bw, sizeof bw) < 0)
        return -1;
    for (int i = 0; i < 2; i++) {
        int e = writable(names[i]);
        if (e < 0) {
            fprintf(stderr, "pshm-pingpong: --plot: cannot write %s: %s\n", names[i], strerror(-e));
            return -1;
        }
    }
    return 0;
}

int bench_write_plots(const char *file, const bench_result_t *results, size_t n)
{
    static const struct { const char *unit, *ylabel, *title; } panel[] = {
        {"us", "one-way latency (us)", "pshm latency vs the machine's limits"},
        {"GB/s", "bandwidth (GB/s)", "pshm bandwidth vs the machine's limits"},
    };
    char bw[TOOL_PATH_MAX];
    const char *names[16];
    res = results, nres = n;
    if (bw_name(file, bw, sizeof bw) < 0)
        return -1;
    int png = bench_plot_is_png(file);
    int (*w)(const char *, const char *, const char *, const char *) = png ? write_png : write_svg;
    for (int k = 0; k < 2; k++) {
        const char *out = k ? bw : file;
        /* A panel no test of the run fills is not written (an empty plot
         * would pass for a result). */
        if (series_of(panel[k].unit, names, 16) == 0) {
            fprintf(stderr, "pshm-pingpong: no %s test ran: %s not written\n",
                    k ? "bandwidth" : "latency", out);
            continue;
        }
        if (w(out, panel[k].unit, panel[k].ylabel, panel[k].title) < 0)
            return -1;
    }
    return 0;
}
