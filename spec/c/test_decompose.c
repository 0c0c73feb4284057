/* test_decompose.c - splitting concave outlines with holes into convex parts (src/decompose.c, private:
 * the test binaries compile it in, see the Makefile).
 *
 * Every answer is judged against the input rings by an oracle that shares nothing with the library:
 * GMP rationals (exact.h) for every orientation, an even-odd crossing count for "inside the outline
 * and outside the holes", and, for validation, a quadratic test of every pair of edges after a cleaning
 * written out again here. What a decomposition must satisfy (dc_check):
 *  - each part is strictly convex and counter-clockwise (every turn strictly left, once around), and its
 *    vertices are bit-identical copies of input points;
 *  - the parts' areas add up to the reported area, which is the rings' area (relative 1e-12);
 *  - every interior edge is matched, end points reversed, by exactly one edge of exactly one other
 *    part, itself interior; every other edge lies on an input ring and is nobody else's;
 *  - for random points, points on the rings and points on the parts' edges: a point is in the closed
 *    region exactly when it is in or on some part; a point strictly inside the region is strictly
 *    inside exactly one part, or on an interior edge (of two parts) and inside none; a point on the
 *    rings is on some part's boundary and inside none.
 */
#include "test.h"

#include "collide2d.h"
#include "decompose.h"
#include "exact.h"

#include <stdlib.h>
#include <string.h>

#define DC_PI 3.14159265358979323846
#define DC_MAXH 64

/* ---- inputs ----------------------------------------------------------------------------------- */

/* An outline (ring 0) and holes, each in its own malloc'd array. */
typedef struct dc_shape {
    int rings;
    int count[1 + DC_MAXH];
    c2d_vec2 *pts[1 + DC_MAXH];
} dc_shape;

static void dc_init(dc_shape *s)
{
    memset(s, 0, sizeof *s);
}

static c2d_vec2 *dc_ring(dc_shape *s, int capacity)
{
    c2d_vec2 *p = (c2d_vec2 *)malloc((size_t)(capacity > 0 ? capacity : 1) * sizeof(c2d_vec2));
    s->pts[s->rings] = p;
    s->count[s->rings] = 0;
    s->rings++;
    return p;
}

static void dc_free(dc_shape *s)
{
    for (int r = 0; r < s->rings; r++)
        free(s->pts[r]);
    dc_init(s);
}

static c2d_vec2 dc_v(double x, double y)
{
    c2d_vec2 v;
    v.x = x;
    v.y = y;
    return v;
}

static c2d_status dc_run(const dc_shape *s, c2d_decomposition *d)
{
    const c2d_vec2 *holes[DC_MAXH];
    int counts[DC_MAXH];
    for (int h = 1; h < s->rings; h++) {
        holes[h - 1] = s->pts[h];
        counts[h - 1] = s->count[h];
    }
    return c2d_decompose(s->pts[0], s->count[0], holes, counts, s->rings - 1, d);
}

/* Prints the input of a failing case, ready to paste into a repro (long rings cut short). */
static void dc_print(const char *label, const dc_shape *s)
{
    printf("  %s: %d ring(s)\n", label, s->rings);
    for (int r = 0; r < s->rings; r++) {
        printf("   ring %d (%d points):", r, s->count[r]);
        for (int i = 0; i < s->count[r] && i < 64; i++)
            printf(" {%.17g, %.17g},", s->pts[r][i].x, s->pts[r][i].y);
        printf(s->count[r] > 64 ? " ...\n" : "\n");
    }
}

/* Reverses ring r in place (the other winding) and starts it at a random point. */
static void dc_shuffle_ring(dc_shape *s, int r, int reverse)
{
    c2d_vec2 *p = s->pts[r];
    int n = s->count[r];
    if (reverse)
        for (int i = 0, j = n - 1; i < j; i++, j--) {
            c2d_vec2 t = p[i];
            p[i] = p[j];
            p[j] = t;
        }
    int k = n > 0 ? (int)(c2d_test_rand() % (unsigned long long)n) : 0;
    for (int turn = 0; turn < k; turn++) {
        c2d_vec2 t = p[0];
        memmove(p, p + 1, (size_t)(n - 1) * sizeof *p);
        p[n - 1] = t;
    }
}

/* A random scale between 1e-3 and 1e4, spread evenly in its exponent. */
static double dc_scale(void)
{
    return pow(10.0, c2d_test_uniform(-3, 4));
}

/* ---- generators ------------------------------------------------------------------------------- */

/* A star-shaped ring of n points about c: angles in order with jitter, radii in [rmin, 1] times size. */
static void dc_star(c2d_vec2 *p, int n, c2d_vec2 c, double size, double rmin, double phase)
{
    for (int i = 0; i < n; i++) {
        double a = phase + 2 * DC_PI * (i + c2d_test_uniform(0, 0.7)) / n;
        double r = size * c2d_test_uniform(rmin, 1);
        p[i] = dc_v(c.x + r * cos(a), c.y + r * sin(a));
    }
}

/* A polyomino: cells of a w x h grid, traced into rings of unit steps (every grid point along an edge is
 * a point, so straight runs are long). Rejected (returns 0) when two cells meet only at a corner, which
 * would pinch the outline, or when it has more than DC_MAXH holes. Coordinates ox + sx * i, oy + sy * j:
 * every point of a straight run keeps one coordinate exactly, whatever the scale. */
#define DC_GRID 24
static int dc_trace(dc_shape *s, unsigned char cells[DC_GRID][DC_GRID], int w, int h, double ox, double oy,
                    double sx, double sy, int max_holes)
{
#define DC_CELL(i, j) ((i) >= 0 && (j) >= 0 && (i) < w && (j) < h && cells[i][j])
    /* The boundary step leaving each grid point (at most one when nothing is pinched). */
    int out_dir[DC_GRID + 1][DC_GRID + 1];
    unsigned char used[DC_GRID + 1][DC_GRID + 1];
    for (int i = 0; i <= w; i++)
        for (int j = 0; j <= h; j++) {
            int a = DC_CELL(i - 1, j - 1), b = DC_CELL(i, j - 1), c = DC_CELL(i - 1, j), d = DC_CELL(i, j);
            if ((a && d && !b && !c) || (b && c && !a && !d))
                return 0;
            /* Counter-clockwise around filled cells: a step goes with a filled cell on its left and an
             * empty one on its right (a, b, c, d: the cells below-left, below-right, above-left,
             * above-right of the point). */
            out_dir[i][j] = -1;
            used[i][j] = 0;
            if (d && !b)
                out_dir[i][j] = 0; /* +x */
            else if (c && !d)
                out_dir[i][j] = 1; /* +y */
            else if (a && !c)
                out_dir[i][j] = 2; /* -x */
            else if (b && !a)
                out_dir[i][j] = 3; /* -y */
        }
    static const int dx[4] = {1, 0, -1, 0}, dy[4] = {0, 1, 0, -1};
    dc_init(s);
    int outer_found = 0;
    for (int j0 = 0; j0 <= h; j0++)
        for (int i0 = 0; i0 <= w; i0++) {
            if (out_dir[i0][j0] < 0 || used[i0][j0])
                continue;
            int len = 0, i = i0, j = j0;
            long twice_area = 0;
            do {
                int d = out_dir[i][j];
                used[i][j] = 1;
                twice_area += (long)i * (j + dy[d]) - (long)(i + dx[d]) * j;
                i += dx[d];
                j += dy[d];
                len++;
            } while (i != i0 || j != j0);
            /* The first loop met in this scan order starts at the lowest-leftmost boundary point: the
             * outline. Holes wind the other way. */
            int is_outer = twice_area > 0;
            if (is_outer && outer_found) {
                dc_free(s);
                return 0; /* two pieces */
            }
            if (!is_outer && (!outer_found || s->rings > max_holes)) {
                dc_free(s);
                return 0;
            }
            c2d_vec2 *p = dc_ring(s, len);
            i = i0;
            j = j0;
            for (int k = 0; k < len; k++) {
                p[k] = dc_v(ox + sx * i, oy + sy * j);
                int d = out_dir[i][j];
                i += dx[d];
                j += dy[d];
            }
            s->count[s->rings - 1] = len;
            outer_found |= is_outer;
        }
    return outer_found;
#undef DC_CELL
}

/* Grows a random polyomino of about k cells in a w x h grid: cells added next to those already in. */
static void dc_grow(unsigned char cells[DC_GRID][DC_GRID], int w, int h, int k)
{
    memset(cells, 0, sizeof(unsigned char) * DC_GRID * DC_GRID);
    int i = (int)(c2d_test_rand() % (unsigned)w), j = (int)(c2d_test_rand() % (unsigned)h), have = 1;
    cells[i][j] = 1;
    for (int tries = 0; have < k && tries < 50 * k; tries++) {
        int a = (int)(c2d_test_rand() % (unsigned)w), b = (int)(c2d_test_rand() % (unsigned)h);
        if (cells[a][b])
            continue;
        int near = (a > 0 && cells[a - 1][b]) || (a + 1 < w && cells[a + 1][b]) || (b > 0 && cells[a][b - 1]) ||
                   (b + 1 < h && cells[a][b + 1]);
        if (near) {
            cells[a][b] = 1;
            have++;
        }
    }
}

/* A random rectilinear level: a polyomino (possibly with holes) at a random scale and offset, each ring
 * in a random winding and starting point. Integer coordinates when integer is set. */
static void dc_level(dc_shape *s, int integer)
{
    static unsigned char cells[DC_GRID][DC_GRID];
    for (;;) {
        int w = 3 + (int)(c2d_test_rand() % 18), h = 3 + (int)(c2d_test_rand() % 18);
        dc_grow(cells, w, h, 1 + (int)(c2d_test_rand() % (unsigned)(w * h * 3 / 4)));
        double sx, sy, ox, oy;
        if (integer) {
            sx = sy = (double)(1 + c2d_test_rand() % 3);
            ox = (double)((long)(c2d_test_rand() % 2001) - 1000);
            oy = (double)((long)(c2d_test_rand() % 2001) - 1000);
        } else {
            sx = dc_scale();
            sy = c2d_test_rand() % 2 ? sx : sx * c2d_test_uniform(0.3, 3);
            ox = c2d_test_uniform(-100, 100) * sx;
            oy = c2d_test_uniform(-100, 100) * sy;
        }
        if (!dc_trace(s, cells, w, h, ox, oy, sx, sy, 8))
            continue;
        if (s->count[0] < 4) {
            dc_free(s);
            continue;
        }
        for (int r = 0; r < s->rings; r++)
            dc_shuffle_ring(s, r, (int)(c2d_test_rand() % 2));
        return;
    }
}

/* ---- the oracle ------------------------------------------------------------------------------- */

static int dc_on_segment(c2d_vec2 q, c2d_vec2 a, c2d_vec2 b)
{
    if (q.x < fmin(a.x, b.x) || q.x > fmax(a.x, b.x) || q.y < fmin(a.y, b.y) || q.y > fmax(a.y, b.y))
        return 0;
    return ex_orient(a, b, q) == 0;
}

/* 1 inside, 0 on, -1 outside the ring (even-odd, half-open crossing rule, exact). */
static int dc_ring_side(const c2d_vec2 *v, int n, c2d_vec2 q)
{
    int inside = 0;
    for (int i = 0; i < n; i++) {
        c2d_vec2 a = v[i], b = v[(i + 1) % n];
        if (dc_on_segment(q, a, b))
            return 0;
        if ((a.y > q.y) != (b.y > q.y)) {
            int o = a.y < b.y ? ex_orient(a, b, q) : ex_orient(b, a, q);
            if (o > 0)
                inside ^= 1;
        }
    }
    return inside ? 1 : -1;
}

/* 1 inside the outline and outside every hole, 0 on a ring, -1 elsewhere. */
static int dc_region_side(const dc_shape *s, c2d_vec2 q)
{
    int in = 1;
    for (int r = 0; r < s->rings; r++) {
        int side = dc_ring_side(s->pts[r], s->count[r], q);
        if (side == 0)
            return 0;
        if ((r == 0) != (side > 0))
            in = 0;
    }
    return in ? 1 : -1;
}

/* 1 strictly inside, 0 on the boundary, -1 outside a strictly convex counter-clockwise part. */
static int dc_part_side(const c2d_vec2 *v, int m, c2d_vec2 q)
{
    int on = 0;
    for (int k = 0; k < m; k++) {
        int o = ex_orient(v[k], v[(k + 1) % m], q);
        if (o < 0)
            return -1;
        on |= o == 0;
    }
    return on ? 0 : 1;
}

static int dc_cmp_bits(const void *x, const void *y)
{
    return memcmp(x, y, sizeof(c2d_vec2));
}

/* An edge of a part, for matching. */
typedef struct dc_edge {
    c2d_vec2 a, b;
    int part, internal;
} dc_edge;

static int dc_cmp_edge(const void *x, const void *y)
{
    const dc_edge *e = (const dc_edge *)x, *f = (const dc_edge *)y;
    int c = memcmp(&e->a, &f->a, sizeof(c2d_vec2));
    return c ? c : memcmp(&e->b, &f->b, sizeof(c2d_vec2));
}

static int dc_same(c2d_vec2 a, c2d_vec2 b)
{
    return memcmp(&a, &b, sizeof a) == 0;
}

/* Whether the ring runs from point a to point b, one way or the other, through nothing but repeats of
 * a and points on the segment between them: an edge of the cleaned ring. */
static int dc_along_ring(const c2d_vec2 *v, int n, c2d_vec2 a, c2d_vec2 b)
{
    for (int i = 0; i < n; i++) {
        if (!dc_same(v[i], a))
            continue;
        for (int dir = 1; dir <= n - 1; dir += n - 2) { /* +1, then -1 (mod n) */
            for (int k = 1, j = (i + dir) % n; k < n; k++, j = (j + dir) % n) {
                if (dc_same(v[j], b))
                    return 1;
                if (!dc_same(v[j], a) && !dc_on_segment(v[j], a, b))
                    break;
            }
        }
    }
    return 0;
}

/* Sum with Neumaier's compensation. */
typedef struct dc_sum {
    double s, c;
} dc_sum;
static void dc_add(dc_sum *t, double x)
{
    double s = t->s + x;
    t->c += fabs(t->s) >= fabs(x) ? (t->s - s) + x : (x - s) + t->s;
    t->s = s;
}

/* Signed area of a ring, about its first point. */
static double dc_ring_area(const c2d_vec2 *v, int n)
{
    dc_sum t = {0, 0};
    for (int i = 1; i + 1 < n; i++)
        dc_add(&t, 0.5 * ((v[i].x - v[0].x) * (v[i + 1].y - v[0].y) - (v[i].y - v[0].y) * (v[i + 1].x - v[0].x)));
    return t.s + t.c;
}

#define DC_CHECK(cond, ...)                                                         \
    do {                                                                            \
        if (!(cond)) {                                                              \
            c2d_test_fail(__FILE__, __LINE__, __VA_ARGS__);                         \
            ok = 0;                                                                 \
            goto done;                                                              \
        }                                                                           \
    } while (0)

/* Checks decomposition d of s (see the file's comment); samples random points in the box as well. The
 * quadratic checks (boundary edges against the rings, points against all parts) only when full. */
static int dc_check(const dc_shape *s, const c2d_decomposition *d, int samples, int full)
{
    int ok = 1, total_in = 0, nv = 0;
    c2d_vec2 *inputs = NULL, *probe = NULL;
    dc_edge *edges = NULL;
    for (int r = 0; r < s->rings; r++)
        total_in += s->count[r];

    DC_CHECK(d->part_count >= 1, "%d parts", d->part_count);
    DC_CHECK(d->part_start[0] == 0, "part_start[0] = %d", d->part_start[0]);
    for (int i = 0; i < d->part_count; i++)
        DC_CHECK(d->part_start[i + 1] - d->part_start[i] >= 3, "part %d has %d vertices", i,
                 d->part_start[i + 1] - d->part_start[i]);
    nv = d->part_start[d->part_count];

    /* Strictly convex, counter-clockwise, once around: every turn strictly left and every fan triangle
     * from the first vertex positive. */
    for (int i = 0; i < d->part_count; i++) {
        const c2d_vec2 *v = d->verts + d->part_start[i];
        int m = d->part_start[i + 1] - d->part_start[i];
        for (int k = 0; k < m; k++)
            DC_CHECK(ex_orient(v[k], v[(k + 1) % m], v[(k + 2) % m]) > 0, "part %d turns right or straight at %d", i,
                     (k + 1) % m);
        for (int k = 1; k + 1 < m; k++)
            DC_CHECK(ex_orient(v[0], v[k], v[k + 1]) > 0, "part %d winds more than once", i);
    }

    /* Vertices are input points, bit for bit. */
    inputs = (c2d_vec2 *)malloc((size_t)total_in * sizeof(c2d_vec2));
    for (int r = 0, k = 0; r < s->rings; r++)
        for (int i = 0; i < s->count[r]; i++)
            inputs[k++] = s->pts[r][i];
    qsort(inputs, (size_t)total_in, sizeof(c2d_vec2), dc_cmp_bits);
    for (int k = 0; k < nv; k++)
        DC_CHECK(bsearch(&d->verts[k], inputs, (size_t)total_in, sizeof(c2d_vec2), dc_cmp_bits) != NULL,
                 "vertex %d (%.17g, %.17g) is not an input point", k, d->verts[k].x, d->verts[k].y);

    /* Areas. */
    {
        dc_sum parts = {0, 0};
        double rings = fabs(dc_ring_area(s->pts[0], s->count[0]));
        for (int r = 1; r < s->rings; r++)
            rings -= fabs(dc_ring_area(s->pts[r], s->count[r]));
        for (int i = 0; i < d->part_count; i++) {
            double a = dc_ring_area(d->verts + d->part_start[i], d->part_start[i + 1] - d->part_start[i]);
            DC_CHECK(a > 0, "part %d has area %g", i, a);
            dc_add(&parts, a);
        }
        double sum = parts.s + parts.c;
        DC_CHECK(fabs(sum - d->area) <= 1e-12 * fabs(d->area), "parts add up to %.17g, area %.17g", sum, d->area);
        DC_CHECK(fabs(rings - d->area) <= 1e-12 * fabs(rings), "area %.17g, rings' area %.17g", d->area, rings);
    }

    /* Edges: interior ones matched reversed by exactly one interior edge of another part; the others
     * on a ring and nobody else's. */
    edges = (dc_edge *)malloc((size_t)nv * sizeof(dc_edge));
    for (int i = 0; i < d->part_count; i++)
        for (int k = d->part_start[i]; k < d->part_start[i + 1]; k++) {
            int k1 = k + 1 < d->part_start[i + 1] ? k + 1 : d->part_start[i];
            edges[k].a = d->verts[k];
            edges[k].b = d->verts[k1];
            edges[k].part = i;
            edges[k].internal = d->internal[k];
            DC_CHECK(d->internal[k] <= 1, "internal flag %d", d->internal[k]);
        }
    qsort(edges, (size_t)nv, sizeof(dc_edge), dc_cmp_edge);
    for (int k = 0; k + 1 < nv; k++)
        DC_CHECK(dc_cmp_edge(&edges[k], &edges[k + 1]) != 0, "two parts share the edge (%.17g, %.17g) -> (%.17g, %.17g)",
                 edges[k].a.x, edges[k].a.y, edges[k].b.x, edges[k].b.y);
    for (int k = 0; k < nv; k++) {
        dc_edge rev = edges[k];
        rev.a = edges[k].b;
        rev.b = edges[k].a;
        const dc_edge *m = (const dc_edge *)bsearch(&rev, edges, (size_t)nv, sizeof(dc_edge), dc_cmp_edge);
        if (edges[k].internal) {
            DC_CHECK(m != NULL, "interior edge (%.17g, %.17g) -> (%.17g, %.17g) of part %d has no match",
                     edges[k].a.x, edges[k].a.y, edges[k].b.x, edges[k].b.y, edges[k].part);
            DC_CHECK(m->part != edges[k].part && m->internal, "interior edge matched by its own part or a boundary edge");
        } else {
            DC_CHECK(m == NULL, "boundary edge (%.17g, %.17g) -> (%.17g, %.17g) is also another part's",
                     edges[k].a.x, edges[k].a.y, edges[k].b.x, edges[k].b.y);
            if (full) {
                int on = 0;
                for (int r = 0; r < s->rings && !on; r++)
                    on = dc_along_ring(s->pts[r], s->count[r], edges[k].a, edges[k].b);
                DC_CHECK(on, "boundary edge (%.17g, %.17g) -> (%.17g, %.17g) is not on a ring", edges[k].a.x,
                         edges[k].a.y, edges[k].b.x, edges[k].b.y);
            }
        }
    }

    /* Points: random ones in the box around the outline, the rings' points and edge midpoints, and the
     * parts' edge midpoints and vertex means. */
    if (full) {
        double lox = s->pts[0][0].x, hix = lox, loy = s->pts[0][0].y, hiy = loy;
        for (int i = 0; i < s->count[0]; i++) {
            lox = fmin(lox, s->pts[0][i].x);
            hix = fmax(hix, s->pts[0][i].x);
            loy = fmin(loy, s->pts[0][i].y);
            hiy = fmax(hiy, s->pts[0][i].y);
        }
        double mx = 0.05 * (hix - lox), my = 0.05 * (hiy - loy);
        int np = 0, cap = samples + 2 * total_in + nv + d->part_count;
        probe = (c2d_vec2 *)malloc((size_t)cap * sizeof(c2d_vec2));
        for (int i = 0; i < samples; i++) {
            double y = c2d_test_uniform(loy - my, hiy + my), x = c2d_test_uniform(lox - mx, hix + mx);
            probe[np++] = dc_v(x, y);
        }
        for (int r = 0; r < s->rings; r++)
            for (int i = 0; i < s->count[r]; i++) {
                c2d_vec2 a = s->pts[r][i], b = s->pts[r][(i + 1) % s->count[r]];
                probe[np++] = a;
                probe[np++] = dc_v(0.5 * (a.x + b.x), 0.5 * (a.y + b.y));
            }
        for (int i = 0; i < d->part_count; i++) {
            double cx = 0, cy = 0;
            int m = d->part_start[i + 1] - d->part_start[i];
            for (int k = d->part_start[i]; k < d->part_start[i + 1]; k++) {
                int k1 = k + 1 < d->part_start[i + 1] ? k + 1 : d->part_start[i];
                probe[np++] = dc_v(0.5 * (d->verts[k].x + d->verts[k1].x), 0.5 * (d->verts[k].y + d->verts[k1].y));
                cx += d->verts[k].x;
                cy += d->verts[k].y;
            }
            probe[np++] = dc_v(cx / m, cy / m);
        }
        for (int j = 0; j < np; j++) {
            c2d_vec2 q = probe[j];
            int region = dc_region_side(s, q), inside = 0, on = 0, on_internal = 0;
            for (int i = 0; i < d->part_count; i++) {
                const c2d_vec2 *v = d->verts + d->part_start[i];
                int m = d->part_start[i + 1] - d->part_start[i];
                int side = dc_part_side(v, m, q);
                inside += side > 0;
                if (side == 0) {
                    on++;
                    for (int k = 0; k < m && !on_internal; k++)
                        on_internal = d->internal[d->part_start[i] + k] && dc_on_segment(q, v[k], v[(k + 1) % m]);
                }
            }
            DC_CHECK(inside <= 1 && (inside == 0 || on == 0), "(%.17g, %.17g) is inside %d parts and on %d", q.x, q.y,
                     inside, on);
            if (region > 0)
                DC_CHECK(inside == 1 || (on >= 2 && on_internal), "(%.17g, %.17g) inside the region: inside %d parts, on %d%s",
                         q.x, q.y, inside, on, on_internal ? " (an interior edge)" : "");
            else if (region == 0)
                DC_CHECK(inside == 0 && on >= 1, "(%.17g, %.17g) on a ring: inside %d parts, on %d", q.x, q.y, inside, on);
            else
                DC_CHECK(inside == 0 && on == 0, "(%.17g, %.17g) outside the region: inside %d parts, on %d", q.x, q.y,
                         inside, on);
        }
    }
done:
    free(inputs);
    free(edges);
    free(probe);
    return ok;
}

/* Decomposes s and checks the answer; prints s when something fails. Returns the part count (0 on
 * failure). */
static int dc_expect_ok(const dc_shape *s, int samples, int full)
{
    c2d_decomposition d;
    c2d_status st = dc_run(s, &d);
    if (st != C2D_OK) {
        c2d_test_fail(__FILE__, __LINE__, "decompose returned %d (%s)", (int)st, c2d_status_string(st));
        dc_print("input", s);
        return 0;
    }
    int ok = dc_check(s, &d, samples, full), parts = d.part_count;
    if (!ok)
        dc_print("input", s);
    c2d_decomposition_free(&d);
    return ok ? parts : 0;
}

/* Reflex vertices of the region: ring points that turn right (holes: left, since they wind the other
 * way), straight runs and repeats skipped. Hertel-Mehlhorn keeps at most 2r + 1 parts. */
static int dc_reflex(const dc_shape *s)
{
    int r_count = 0;
    for (int r = 0; r < s->rings; r++) {
        const c2d_vec2 *v = s->pts[r];
        int n = s->count[r];
        int wind = dc_ring_area(v, n) > 0 ? 1 : -1;
        if (r > 0)
            wind = -wind;
        for (int i = 0; i < n; i++) {
            /* the nearest distinct points before and after */
            int a = (i + n - 1) % n, b = (i + 1) % n;
            while (a != i && v[a].x == v[i].x && v[a].y == v[i].y)
                a = (a + n - 1) % n;
            while (b != i && v[b].x == v[i].x && v[b].y == v[i].y)
                b = (b + 1) % n;
            if (ex_orient(v[a], v[i], v[b]) * wind < 0)
                r_count++;
        }
    }
    return r_count;
}

/* ---- worked examples -------------------------------------------------------------------------- */

TEST(decompose_square_is_one_part_without_interior_edges)
{
    dc_shape s;
    c2d_decomposition d;
    dc_init(&s);
    c2d_vec2 *p = dc_ring(&s, 4);
    p[0] = dc_v(0, 0);
    p[1] = dc_v(2, 0);
    p[2] = dc_v(2, 2);
    p[3] = dc_v(0, 2);
    s.count[0] = 4;
    ENSURE_OK(dc_run(&s, &d));
    ENSURE(d.part_count == 1 && d.part_start[0] == 0 && d.part_start[1] == 4);
    ENSURE(d.area == 4);
    for (int k = 0; k < 4; k++)
        ENSURE(d.internal[k] == 0);
    ENSURE(dc_check(&s, &d, 50, 1));
    c2d_decomposition_free(&d);
    ENSURE(d.verts == NULL && d.part_count == 0);
    dc_free(&s);
}

TEST(decompose_drops_repeated_points_and_straight_run_middles)
{
    /* The square (0,0)-(4,4) clockwise, with repeats and points along its sides: one part, its four
     * corners, counter-clockwise. */
    static const c2d_vec2 in[] = {{0, 0}, {0, 0}, {0, 1}, {0, 4}, {2, 4}, {3, 4}, {4, 4},
                                  {4, 4}, {4, 0}, {1, 0}, {0, 0}};
    c2d_decomposition d;
    ENSURE_OK(c2d_decompose(in, 11, NULL, NULL, 0, &d));
    ENSURE(d.part_count == 1 && d.part_start[1] == 4);
    ENSURE(d.area == 16);
    int corners = 0;
    for (int k = 0; k < 4; k++) {
        c2d_vec2 v = d.verts[k], w = d.verts[(k + 1) % 4];
        corners += (v.x == 0 || v.x == 4) && (v.y == 0 || v.y == 4);
        ENSURE((w.x - v.x) * (d.verts[(k + 2) % 4].y - w.y) - (w.y - v.y) * (d.verts[(k + 2) % 4].x - w.x) > 0);
        ENSURE(d.internal[k] == 0);
    }
    ENSURE(corners == 4);
    c2d_decomposition_free(&d);
}

TEST(decompose_l_shape_gives_two_parts)
{
    /* An L of three unit squares: two convex parts is the best, and what comes out. */
    static const c2d_vec2 in[] = {{0, 0}, {2, 0}, {2, 1}, {1, 1}, {1, 2}, {0, 2}};
    dc_shape s;
    c2d_decomposition d;
    dc_init(&s);
    memcpy(dc_ring(&s, 6), in, sizeof in);
    s.count[0] = 6;
    ENSURE_OK(dc_run(&s, &d));
    ENSURE(d.area == 3);
    ENSURE_MSG(d.part_count == 2, "%d parts", d.part_count);
    ENSURE(dc_check(&s, &d, 200, 1));
    int interior = 0;
    for (int k = 0; k < d.part_start[d.part_count]; k++)
        interior += d.internal[k];
    ENSURE(interior == 2); /* the one shared edge, seen from each side */
    c2d_decomposition_free(&d);
    dc_free(&s);
}

TEST(decompose_square_frame_around_a_square_hole)
{
    /* (0,0)-(3,3) minus (1,1)-(2,2), the hole given counter-clockwise like the outline: area 8, and
     * a frame needs four convex parts at least. */
    static const c2d_vec2 outer[] = {{0, 0}, {3, 0}, {3, 3}, {0, 3}};
    static const c2d_vec2 inner[] = {{1, 1}, {2, 1}, {2, 2}, {1, 2}};
    const c2d_vec2 *holes[1] = {inner};
    int counts[1] = {4};
    dc_shape s;
    c2d_decomposition d;
    dc_init(&s);
    memcpy(dc_ring(&s, 4), outer, sizeof outer);
    memcpy(dc_ring(&s, 4), inner, sizeof inner);
    s.count[0] = s.count[1] = 4;
    ENSURE_OK(c2d_decompose(outer, 4, holes, counts, 1, &d));
    ENSURE(d.area == 8);
    ENSURE_MSG(d.part_count >= 4 && d.part_count <= 2 * 4 + 1, "%d parts", d.part_count);
    ENSURE(dc_check(&s, &d, 400, 1));
    c2d_decomposition_free(&d);
    dc_free(&s);
}

TEST(decompose_convex_inputs_give_one_part)
{
    /* Regular polygons turned at random, either winding, at any scale, with a midpoint put on some
     * sides where it is exact (axis-aligned sides of a square) or not (then it is usually off the line,
     * making that vertex a real, convex one): always one part, no interior edge. */
    long iters = c2d_test_iterations(300);
    for (long it = 0; it < iters; it++) {
        int n = 3 + (int)(c2d_test_rand() % 30);
        double scale = dc_scale(), turn = c2d_test_uniform(0, 2 * DC_PI);
        double cy = c2d_test_uniform(-1e3, 1e3) * scale, cx = c2d_test_uniform(-1e3, 1e3) * scale;
        c2d_vec2 c = dc_v(cx, cy);
        dc_shape s;
        dc_init(&s);
        c2d_vec2 *p = dc_ring(&s, 2 * n);
        int m = 0;
        for (int i = 0; i < n; i++) {
            double a = turn + 2 * DC_PI * i / n;
            p[m++] = dc_v(c.x + scale * cos(a), c.y + scale * sin(a));
            if (c2d_test_rand() % 3 == 0) {
                /* the next vertex as it will be stored: the first one again after the last */
                double b = turn + 2 * DC_PI * (i + 1) / n;
                c2d_vec2 q = i + 1 < n ? dc_v(c.x + scale * cos(b), c.y + scale * sin(b)) : p[0];
                c2d_vec2 mid = dc_v(0.5 * (p[m - 1].x + q.x), 0.5 * (p[m - 1].y + q.y));
                if (ex_orient(p[m - 1], mid, q) >= 0) /* on the side or outside it: still convex */
                    p[m++] = mid;
            }
        }
        s.count[0] = m;
        dc_shuffle_ring(&s, 0, (int)(c2d_test_rand() % 2));
        c2d_decomposition d;
        ENSURE_OK(dc_run(&s, &d));
        int interior = 0;
        for (int k = 0; k < d.part_start[d.part_count]; k++)
            interior += d.internal[k];
        int parts = d.part_count, ok = parts == 1 && interior == 0 && dc_check(&s, &d, 30, 1);
        if (!ok)
            dc_print("input", &s);
        c2d_decomposition_free(&d);
        dc_free(&s);
        ENSURE_MSG(ok, "a convex polygon gave %d parts, %d interior edges", parts, interior);
    }
}

/* ---- random families -------------------------------------------------------------------------- */

TEST(decompose_random_star_polygons)
{
    long iters = c2d_test_iterations(300);
    for (long it = 0; it < iters && !c2d_test_failed(); it++) {
        int n = 3 + (int)(c2d_test_rand() % (it % 10 == 0 ? 400 : 60));
        double scale = dc_scale();
        dc_shape s;
        dc_init(&s);
        double phase = c2d_test_uniform(0, 7), rmin = c2d_test_uniform(0.05, 0.9);
        double cy = c2d_test_uniform(-50, 50) * scale, cx = c2d_test_uniform(-50, 50) * scale;
        dc_star(dc_ring(&s, n), n, dc_v(cx, cy), scale, rmin, phase);
        s.count[0] = n;
        dc_shuffle_ring(&s, 0, (int)(c2d_test_rand() % 2));
        int parts = dc_expect_ok(&s, 100, 1);
        int bound = 2 * dc_reflex(&s) + 1;
        if (parts > bound)
            c2d_test_fail(__FILE__, __LINE__, "%d parts, above 2r + 1 = %d", parts, bound);
        dc_free(&s);
    }
}

TEST(decompose_random_rectilinear_levels)
{
    /* Polyominoes: long straight runs of points, many reflex corners at the same heights, holes whose
     * rightmost point lines up with outline points: the bridge search's ties. */
    long iters = c2d_test_iterations(300);
    for (long it = 0; it < iters && !c2d_test_failed(); it++) {
        dc_shape s;
        dc_level(&s, 0);
        int parts = dc_expect_ok(&s, 100, 1);
        int bound = 2 * dc_reflex(&s) + 1;
        if (parts > bound)
            c2d_test_fail(__FILE__, __LINE__, "%d parts, above 2r + 1 = %d", parts, bound);
        dc_free(&s);
    }
}

TEST(decompose_integer_grids_with_collinear_and_shared_points)
{
    /* The same on integer coordinates, plus lattice points as probes (vertices, edge points and
     * diagonal crossings land exactly on them). */
    long iters = c2d_test_iterations(300);
    for (long it = 0; it < iters && !c2d_test_failed(); it++) {
        dc_shape s;
        dc_level(&s, 1);
        c2d_decomposition d;
        c2d_status st = dc_run(&s, &d);
        ENSURE_MSG(st == C2D_OK, "status %d", (int)st);
        int ok = dc_check(&s, &d, 100, 1);
        /* Probes on the lattice of half steps over the box (300 of them, at random). */
        double lox = s.pts[0][0].x, hix = lox, loy = s.pts[0][0].y, hiy = loy;
        for (int i = 0; i < s.count[0]; i++) {
            lox = fmin(lox, s.pts[0][i].x);
            hix = fmax(hix, s.pts[0][i].x);
            loy = fmin(loy, s.pts[0][i].y);
            hiy = fmax(hiy, s.pts[0][i].y);
        }
        long cols = (long)(2 * (hix - lox)) + 3, rows = (long)(2 * (hiy - loy)) + 3;
        for (int j = 0; ok && j < 300; j++) {
            double x = lox - 0.5 + 0.5 * (double)(c2d_test_rand() % (unsigned long long)cols);
            double y = loy - 0.5 + 0.5 * (double)(c2d_test_rand() % (unsigned long long)rows);
            c2d_vec2 q = dc_v(x, y);
            int region = dc_region_side(&s, q), inside = 0, on = 0;
            for (int i = 0; i < d.part_count; i++) {
                int side = dc_part_side(d.verts + d.part_start[i], d.part_start[i + 1] - d.part_start[i], q);
                inside += side > 0;
                on += side == 0;
            }
            if (!(region > 0 ? (inside == 1 && on == 0) || (inside == 0 && on >= 2)
                             : region == 0 ? inside == 0 && on >= 1 : inside == 0 && on == 0)) {
                c2d_test_fail(__FILE__, __LINE__, "lattice point (%g, %g): region %d, inside %d parts, on %d", x, y,
                              region, inside, on);
                ok = 0;
            }
        }
        if (!ok)
            dc_print("input", &s);
        c2d_decomposition_free(&d);
        dc_free(&s);
    }
}

TEST(decompose_combs_and_zigzags)
{
    long iters = c2d_test_iterations(150);
    for (long it = 0; it < iters && !c2d_test_failed(); it++) {
        int teeth = 1 + (int)(c2d_test_rand() % 40), kind = (int)(it % 3);
        double sc = dc_scale();
        dc_shape s;
        dc_init(&s);
        c2d_vec2 *p = dc_ring(&s, 4 * teeth + 8);
        int m = 0;
        if (kind == 0) {
            /* A rectilinear comb: teeth + 1 teeth over [x[2k], x[2k+1]] of random heights, gaps between
             * them down to a spine of height 1. */
            double x[2 * 41 + 2];
            x[0] = 0;
            for (int k = 1; k < 2 * teeth + 2; k++)
                x[k] = x[k - 1] + c2d_test_uniform(0.2, 2);
            p[m++] = dc_v(0, 0);
            p[m++] = dc_v(x[2 * teeth + 1] * sc, 0);
            for (int k = teeth; k >= 0; k--) {
                double top = c2d_test_uniform(2, 10) * sc;
                p[m++] = dc_v(x[2 * k + 1] * sc, top);
                p[m++] = dc_v(x[2 * k] * sc, top);
                if (k > 0) {
                    p[m++] = dc_v(x[2 * k] * sc, sc);
                    p[m++] = dc_v(x[2 * k - 1] * sc, sc);
                }
            }
        } else {
            /* Zig-zags: a saw along the top of a bar, its valleys all at one height and its peaks
             * random; the bar's bottom straight (kind 1, a run of collinear points) or a random saw. */
            for (int t = 0; t <= teeth; t++)
                p[m++] = dc_v(t * sc, kind == 2 ? -c2d_test_uniform(0.5, 3) * sc : -sc);
            for (int t = teeth; t >= 0; t--) {
                p[m++] = dc_v(t * sc, 0);
                if (t > 0)
                    p[m++] = dc_v((t - 0.5) * sc, c2d_test_uniform(0.5, 5) * sc);
            }
        }
        s.count[0] = m;
        dc_shuffle_ring(&s, 0, (int)(c2d_test_rand() % 2));
        int parts = dc_expect_ok(&s, 100, 1);
        int bound = 2 * dc_reflex(&s) + 1;
        if (parts > bound)
            c2d_test_fail(__FILE__, __LINE__, "%d parts, above 2r + 1 = %d", parts, bound);
        dc_free(&s);
    }
}

TEST(decompose_spirals)
{
    /* A spiral arm: its outer curve out, its inner curve back, several turns; gaps between turns twice
     * the arm's width. */
    long iters = c2d_test_iterations(40);
    for (long it = 0; it < iters && !c2d_test_failed(); it++) {
        int per_turn = 8 + (int)(c2d_test_rand() % 40), turns = 1 + (int)(c2d_test_rand() % 5);
        int k = per_turn * turns + 1;
        double sc = dc_scale(), spacing = 3, width = 1;
        dc_shape s;
        dc_init(&s);
        c2d_vec2 *p = dc_ring(&s, 2 * k);
        for (int i = 0; i < k; i++) {
            double t = 2 * DC_PI * i / per_turn, r = 1 + spacing * t / (2 * DC_PI);
            p[i] = dc_v(sc * (r + width) * cos(t), sc * (r + width) * sin(t));
            p[2 * k - 1 - i] = dc_v(sc * r * cos(t), sc * r * sin(t));
        }
        s.count[0] = 2 * k;
        dc_shuffle_ring(&s, 0, (int)(c2d_test_rand() % 2));
        int parts = dc_expect_ok(&s, 100, 1);
        int bound = 2 * dc_reflex(&s) + 1;
        if (parts > bound)
            c2d_test_fail(__FILE__, __LINE__, "%d parts, above 2r + 1 = %d", parts, bound);
        dc_free(&s);
    }
}

TEST(decompose_polygons_with_one_to_three_holes)
{
    /* A star outline around the disc of radius 0.6, holes small stars in separate thirds of the disc of
     * radius 0.45; any winding for each. */
    long iters = c2d_test_iterations(300);
    for (long it = 0; it < iters && !c2d_test_failed(); it++) {
        int n = 3 + (int)(c2d_test_rand() % 50), holes = 1 + (int)(c2d_test_rand() % 3);
        double sc = dc_scale(), phase = c2d_test_uniform(0, 2 * DC_PI);
        double cy = c2d_test_uniform(-20, 20) * sc, cx = c2d_test_uniform(-20, 20) * sc;
        c2d_vec2 c = dc_v(cx, cy);
        dc_shape s;
        dc_init(&s);
        /* A triangle outline cannot hold the holes' disc: at least 8 points, radius 0.7 and up. */
        if (n < 8)
            n = 8;
        dc_star(dc_ring(&s, n), n, c, sc, 0.7, c2d_test_uniform(0, 7));
        s.count[0] = n;
        for (int h = 0; h < holes; h++) {
            int m = 3 + (int)(c2d_test_rand() % 12);
            double a = phase + 2 * DC_PI * h / 3;
            c2d_vec2 hc = dc_v(c.x + 0.28 * sc * cos(a), c.y + 0.28 * sc * sin(a));
            double hole_phase = c2d_test_uniform(0, 7), hole_rmin = c2d_test_uniform(0.2, 1);
            dc_star(dc_ring(&s, m), m, hc, 0.14 * sc, hole_rmin, hole_phase);
            s.count[s.rings - 1] = m;
        }
        for (int r = 0; r < s.rings; r++)
            dc_shuffle_ring(&s, r, (int)(c2d_test_rand() % 2));
        int parts = dc_expect_ok(&s, 150, 1);
        int bound = 2 * dc_reflex(&s) + 1;
        if (parts > bound)
            c2d_test_fail(__FILE__, __LINE__, "%d parts, above 2r + 1 = %d", parts, bound);
        dc_free(&s);
    }
}

TEST(decompose_lattice_holes_line_up_with_each_other_and_the_outline)
{
    /* A polyomino of 4 x 4 blocks, and in some blocks a small hole on the lattice, a unit away from the
     * block's sides: squares (some with a point in the middle of a side), diamonds, triangles. Rays
     * from the holes' rightmost points run exactly through other holes' points and the outline's
     * corners, bridges end on points that already have copies, and the triangle search meets points
     * on its own sides. Coordinates ox + s * i keep every line of the lattice exactly. */
    static unsigned char cells[DC_GRID][DC_GRID];
    long iters = c2d_test_iterations(150);
    for (long it = 0; it < iters && !c2d_test_failed(); it++) {
        int w = 2 + (int)(c2d_test_rand() % 5), h = 2 + (int)(c2d_test_rand() % 5);
        dc_shape s;
        dc_grow(cells, w, h, 1 + (int)(c2d_test_rand() % (unsigned)(w * h)));
        double sc = it % 3 == 0 ? 1 : dc_scale(), ox = it % 3 == 0 ? 0 : c2d_test_uniform(-50, 50) * sc;
        if (!dc_trace(&s, cells, w, h, ox, ox, 4 * sc, 4 * sc, 0))
            continue;
        for (int i = 0; i < w; i++)
            for (int j = 0; j < h && s.rings <= DC_MAXH; j++) {
                if (!cells[i][j] || c2d_test_rand() % 3 == 0)
                    continue;
                int kind = (int)(c2d_test_rand() % 4), m = 0;
                c2d_vec2 *p = dc_ring(&s, 8);
                double cx = 4 * i, cy = 4 * j;
#define DC_P(a, b) (p[m++] = dc_v(ox + sc * (cx + (a)), ox + sc * (cy + (b))))
                if (kind == 0) {
                    int x0 = 1 + (int)(c2d_test_rand() % 2), y0 = 1 + (int)(c2d_test_rand() % 2);
                    int x1 = x0 + 1 + (int)(c2d_test_rand() % (unsigned)(3 - x0)), y1 = y0 + 1 + (int)(c2d_test_rand() % (unsigned)(3 - y0));
                    DC_P(x0, y0);
                    DC_P(x1, y0);
                    DC_P(x1, y1);
                    DC_P(x0, y1);
                } else if (kind == 1) {
                    DC_P(1, 1);
                    DC_P(2, 1);
                    DC_P(3, 1);
                    DC_P(3, 3);
                    DC_P(1, 3);
                    DC_P(1, 2);
                } else if (kind == 2) {
                    DC_P(2, 1);
                    DC_P(3, 2);
                    DC_P(2, 3);
                    DC_P(1, 2);
                } else {
                    /* a triangle of lattice points in [1, 3]^2, drawn until not flat */
                    c2d_vec2 t[3];
                    do {
                        for (int k = 0; k < 3; k++) {
                            double y = 1 + (double)(c2d_test_rand() % 3), x = 1 + (double)(c2d_test_rand() % 3);
                            t[k] = dc_v(x, y);
                        }
                    } while (ex_orient(t[0], t[1], t[2]) == 0);
                    for (int k = 0; k < 3; k++)
                        DC_P(t[k].x, t[k].y);
                }
#undef DC_P
                s.count[s.rings - 1] = m;
            }
        for (int r = 0; r < s.rings; r++)
            dc_shuffle_ring(&s, r, (int)(c2d_test_rand() % 2));
        int parts = dc_expect_ok(&s, 200, 1);
        int bound = 2 * dc_reflex(&s) + 1;
        if (parts > bound)
            c2d_test_fail(__FILE__, __LINE__, "%d parts, above 2r + 1 = %d", parts, bound);
        dc_free(&s);
    }
}

TEST(decompose_is_deterministic)
{
    /* The same input, from another copy, gives the same bytes. */
    long iters = c2d_test_iterations(50);
    for (long it = 0; it < iters; it++) {
        dc_shape s, t;
        if (it % 2)
            dc_level(&s, 0);
        else {
            int n = 3 + (int)(c2d_test_rand() % 200);
            dc_init(&s);
            dc_star(dc_ring(&s, n), n, dc_v(0, 0), 10, 0.1, 0);
            s.count[0] = n;
        }
        dc_init(&t);
        for (int r = 0; r < s.rings; r++) {
            memcpy(dc_ring(&t, s.count[r]), s.pts[r], (size_t)s.count[r] * sizeof(c2d_vec2));
            t.count[r] = s.count[r];
        }
        c2d_decomposition a, b;
        ENSURE_OK(dc_run(&s, &a));
        ENSURE_OK(dc_run(&t, &b));
        int nv = a.part_start[a.part_count];
        int same = a.part_count == b.part_count && a.area == b.area &&
                   memcmp(a.part_start, b.part_start, ((size_t)a.part_count + 1) * sizeof(int)) == 0 &&
                   memcmp(a.verts, b.verts, (size_t)nv * sizeof(c2d_vec2)) == 0 &&
                   memcmp(a.internal, b.internal, (size_t)nv) == 0;
        c2d_decomposition_free(&a);
        c2d_decomposition_free(&b);
        dc_free(&s);
        dc_free(&t);
        ENSURE(same);
    }
}

/* ---- validation ------------------------------------------------------------------------------- */

/* Fills *d with a pattern and checks that a failing call leaves it so. */
#define ENSURE_FAILS(want, call, d)                                                  \
    do {                                                                            \
        c2d_decomposition before_;                                                  \
        memset(&(d), 0xA5, sizeof(d));                                              \
        memset(&before_, 0xA5, sizeof before_);                                     \
        c2d_status got_ = (call);                                                   \
        ENSURE_MSG(got_ == (want), "%s returned %d (%s), expected %d", #call, (int)got_, \
                   c2d_status_string(got_), (int)(want));                           \
        ENSURE_MSG(memcmp(&(d), &before_, sizeof before_) == 0, "%s wrote *out on failure", #call); \
    } while (0)

TEST(decompose_rejects_null_and_counts_out_of_range)
{
    static const c2d_vec2 sq[] = {{0, 0}, {4, 0}, {4, 4}, {0, 4}};
    static const c2d_vec2 tri[] = {{1, 1}, {2, 1}, {1, 2}};
    const c2d_vec2 *holes[2] = {tri, NULL};
    int counts[2] = {3, 3}, bad[1] = {-1}, huge[1] = {C2D_MAX_POLYGON_POINTS};
    c2d_decomposition d;
    ENSURE_FAILS(C2D_ERR_NULL, c2d_decompose(NULL, 4, NULL, NULL, 0, &d), d);
    ENSURE(c2d_decompose(sq, 4, NULL, NULL, 0, NULL) == C2D_ERR_NULL);
    ENSURE_FAILS(C2D_ERR_NULL, c2d_decompose(sq, 4, NULL, counts, 1, &d), d);
    ENSURE_FAILS(C2D_ERR_NULL, c2d_decompose(sq, 4, holes, NULL, 1, &d), d);
    ENSURE_FAILS(C2D_ERR_NULL, c2d_decompose(sq, 4, holes, counts, 2, &d), d);
    ENSURE_FAILS(C2D_ERR_RANGE, c2d_decompose(sq, -1, NULL, NULL, 0, &d), d);
    ENSURE_FAILS(C2D_ERR_RANGE, c2d_decompose(sq, C2D_MAX_POLYGON_POINTS + 1, NULL, NULL, 0, &d), d);
    ENSURE_FAILS(C2D_ERR_RANGE, c2d_decompose(sq, 4, NULL, NULL, -1, &d), d);
    ENSURE_FAILS(C2D_ERR_RANGE, c2d_decompose(sq, 4, holes, counts, C2D_MAX_POLYGON_POINTS + 1, &d), d);
    ENSURE_FAILS(C2D_ERR_RANGE, c2d_decompose(sq, 4, holes, bad, 1, &d), d);
    /* The total counts: 4 + 65536 points is one too many. */
    ENSURE_FAILS(C2D_ERR_RANGE, c2d_decompose(sq, 4, holes, huge, 1, &d), d);
    /* Holes may be NULL with no holes. */
    ENSURE_OK(c2d_decompose(sq, 4, NULL, NULL, 0, &d));
    c2d_decomposition_free(&d);
    c2d_decomposition_free(NULL);
}

TEST(decompose_rejects_nan_infinity_and_huge_coordinates)
{
    c2d_vec2 sq[] = {{0, 0}, {4, 0}, {4, 4}, {0, 4}};
    c2d_vec2 tri[] = {{1, 1}, {2, 1}, {1, 2}};
    const c2d_vec2 *holes[1] = {tri};
    int counts[1] = {3};
    c2d_decomposition d;
    sq[2].x = NAN;
    ENSURE_FAILS(C2D_ERR_NOT_FINITE, c2d_decompose(sq, 4, NULL, NULL, 0, &d), d);
    sq[2].x = INFINITY;
    ENSURE_FAILS(C2D_ERR_NOT_FINITE, c2d_decompose(sq, 4, NULL, NULL, 0, &d), d);
    sq[2].x = 2e15;
    ENSURE_FAILS(C2D_ERR_RANGE, c2d_decompose(sq, 4, NULL, NULL, 0, &d), d);
    sq[2].x = 4;
    tri[1].y = -INFINITY;
    ENSURE_FAILS(C2D_ERR_NOT_FINITE, c2d_decompose(sq, 4, holes, counts, 1, &d), d);
    tri[1].y = 1;
    ENSURE_OK(c2d_decompose(sq, 4, holes, counts, 1, &d));
    c2d_decomposition_free(&d);
}

TEST(decompose_rejects_short_and_collinear_rings_as_degenerate)
{
    static const c2d_vec2 two[] = {{0, 0}, {1, 1}};
    static const c2d_vec2 repeats[] = {{0, 0}, {1, 1}, {1, 1}, {0, 0}, {0, 0}};
    static const c2d_vec2 line[] = {{0, 0}, {1, 1}, {3, 3}, {2, 2}, {-5, -5}};
    static const c2d_vec2 sq[] = {{0, 0}, {4, 0}, {4, 4}, {0, 4}};
    static const c2d_vec2 flat[] = {{1, 1}, {2, 2}, {3, 3}};
    const c2d_vec2 *holes[1] = {flat};
    int counts[1] = {3};
    c2d_decomposition d;
    ENSURE_FAILS(C2D_ERR_DEGENERATE, c2d_decompose(sq, 0, NULL, NULL, 0, &d), d);
    ENSURE_FAILS(C2D_ERR_DEGENERATE, c2d_decompose(two, 2, NULL, NULL, 0, &d), d);
    ENSURE_FAILS(C2D_ERR_DEGENERATE, c2d_decompose(repeats, 5, NULL, NULL, 0, &d), d);
    ENSURE_FAILS(C2D_ERR_DEGENERATE, c2d_decompose(line, 5, NULL, NULL, 0, &d), d);
    ENSURE_FAILS(C2D_ERR_DEGENERATE, c2d_decompose(sq, 4, holes, counts, 1, &d), d);
}

TEST(decompose_rejects_rings_that_cross_or_touch_themselves)
{
    static const c2d_vec2 bowtie[] = {{0, 0}, {2, 2}, {2, 0}, {0, 2}};
    /* Two squares sharing the corner (2, 2), as one ring passing through it twice. */
    static const c2d_vec2 pinch[] = {{0, 0}, {2, 0}, {2, 2}, {4, 2}, {4, 4}, {2, 4}, {2, 2}, {0, 2}};
    /* A vertex on another edge: (2, 0) touches the bottom edge from above. */
    static const c2d_vec2 dent[] = {{0, 0}, {4, 0}, {4, 4}, {3, 4}, {2, 0.0}, {1, 4}, {0, 4}};
    /* A spike doubling back along itself. */
    static const c2d_vec2 spike[] = {{0, 0}, {4, 0}, {4, 4}, {2, 4}, {2, 6}, {2, 5}, {0, 4}};
    /* Two edges overlapping along a stretch without a shared vertex. */
    static const c2d_vec2 overlap[] = {{0, 0}, {6, 0}, {6, 2}, {4, 2}, {4, 0}, {2, 0}, {2, 2}, {0, 2}};
    c2d_decomposition d;
    ENSURE_FAILS(C2D_ERR_NOT_SIMPLE, c2d_decompose(bowtie, 4, NULL, NULL, 0, &d), d);
    ENSURE_FAILS(C2D_ERR_NOT_SIMPLE, c2d_decompose(pinch, 8, NULL, NULL, 0, &d), d);
    ENSURE_FAILS(C2D_ERR_NOT_SIMPLE, c2d_decompose(dent, 7, NULL, NULL, 0, &d), d);
    ENSURE_FAILS(C2D_ERR_NOT_SIMPLE, c2d_decompose(spike, 7, NULL, NULL, 0, &d), d);
    ENSURE_FAILS(C2D_ERR_NOT_SIMPLE, c2d_decompose(overlap, 8, NULL, NULL, 0, &d), d);
}

TEST(decompose_rejects_holes_that_leave_the_outline_or_meet)
{
    static const c2d_vec2 sq[] = {{0, 0}, {10, 0}, {10, 10}, {0, 10}};
    static const c2d_vec2 crossing[] = {{8, 4}, {12, 4}, {12, 6}, {8, 6}};
    static const c2d_vec2 outside[] = {{11, 4}, {12, 4}, {12, 6}};
    static const c2d_vec2 touching[] = {{10, 5}, {8, 4}, {8, 6}};      /* a vertex on the outline */
    static const c2d_vec2 along[] = {{6, 0}, {8, 0}, {7, 2}};          /* an edge along the outline */
    static const c2d_vec2 a[] = {{2, 2}, {5, 2}, {5, 5}, {2, 5}};
    static const c2d_vec2 b[] = {{4, 4}, {7, 4}, {7, 7}, {4, 7}};      /* overlaps a */
    static const c2d_vec2 c[] = {{5, 3}, {7, 3}, {7, 4}};             /* touches a at (5, 3) */
    static const c2d_vec2 inner[] = {{3, 3}, {4, 3}, {4, 4}};         /* inside a */
    static const c2d_vec2 around[] = {{-1, -1}, {11, -1}, {11, 11}, {-1, 11}}; /* holds the outline */
    c2d_decomposition d;
    const c2d_vec2 *h[2];
    int n[2];
#define DC_HOLES(x, y)                                                              \
    (h[0] = (x), n[0] = (int)(sizeof(x) / sizeof(c2d_vec2)), h[1] = (y), n[1] = (int)(sizeof(y) / sizeof(c2d_vec2)))
    DC_HOLES(crossing, a);
    ENSURE_FAILS(C2D_ERR_NOT_SIMPLE, c2d_decompose(sq, 4, h, n, 1, &d), d);
    DC_HOLES(outside, a);
    ENSURE_FAILS(C2D_ERR_NOT_SIMPLE, c2d_decompose(sq, 4, h, n, 1, &d), d);
    DC_HOLES(touching, a);
    ENSURE_FAILS(C2D_ERR_NOT_SIMPLE, c2d_decompose(sq, 4, h, n, 1, &d), d);
    DC_HOLES(along, a);
    ENSURE_FAILS(C2D_ERR_NOT_SIMPLE, c2d_decompose(sq, 4, h, n, 1, &d), d);
    DC_HOLES(around, a);
    ENSURE_FAILS(C2D_ERR_NOT_SIMPLE, c2d_decompose(sq, 4, h, n, 1, &d), d);
    DC_HOLES(a, b);
    ENSURE_FAILS(C2D_ERR_NOT_SIMPLE, c2d_decompose(sq, 4, h, n, 2, &d), d);
    DC_HOLES(a, c);
    ENSURE_FAILS(C2D_ERR_NOT_SIMPLE, c2d_decompose(sq, 4, h, n, 2, &d), d);
    DC_HOLES(a, inner);
    ENSURE_FAILS(C2D_ERR_NOT_SIMPLE, c2d_decompose(sq, 4, h, n, 2, &d), d);
    DC_HOLES(inner, a);
    ENSURE_FAILS(C2D_ERR_NOT_SIMPLE, c2d_decompose(sq, 4, h, n, 2, &d), d);
    /* Apart, they are fine. */
    DC_HOLES(a, crossing);
    ENSURE_OK(c2d_decompose(sq, 4, h, n, 1, &d));
    c2d_decomposition_free(&d);
#undef DC_HOLES
}

/* The oracle's cleaning of one ring, written independently of the library's: repeats out, then any
 * point in the middle of a straight run out (again and again), a point whose neighbours are on one line
 * with it on one side a spike. Returns the status, the cleaned ring in out. */
static c2d_status dc_oracle_clean(const c2d_vec2 *in, int n, c2d_vec2 *out, int *m)
{
    int k = 0;
    for (int i = 0; i < n; i++)
        if (k == 0 || in[i].x != out[k - 1].x || in[i].y != out[k - 1].y)
            out[k++] = in[i];
    while (k > 1 && out[k - 1].x == out[0].x && out[k - 1].y == out[0].y)
        k--;
    if (k < 3)
        return C2D_ERR_DEGENERATE;
    int area = 0;
    for (int i = 2; i < k; i++)
        area |= ex_orient(out[0], out[1], out[i]) != 0;
    if (!area)
        return C2D_ERR_DEGENERATE;
    for (int changed = 1; changed;) {
        changed = 0;
        for (int i = 0; i < k; i++) {
            c2d_vec2 a = out[(i + k - 1) % k], b = out[i], c = out[(i + 1) % k];
            if (ex_orient(a, b, c) != 0)
                continue;
            /* b between a and c: the vectors to them point apart (exact on the lattices used here) */
            if ((a.x - b.x) * (c.x - b.x) + (a.y - b.y) * (c.y - b.y) >= 0)
                return C2D_ERR_NOT_SIMPLE;
            memmove(out + i, out + i + 1, (size_t)(k - i - 1) * sizeof *out);
            k--;
            changed = 1;
            break;
        }
    }
    *m = k;
    return C2D_OK;
}

/* What c2d_decompose should answer for s, from the quadratic definition. */
static c2d_status dc_oracle(const dc_shape *s)
{
    c2d_vec2 *clean[1 + DC_MAXH];
    int m[1 + DC_MAXH], rings = 0;
    c2d_status st = C2D_OK;
    for (int r = 0; r < s->rings && st == C2D_OK; r++) {
        clean[r] = (c2d_vec2 *)malloc((size_t)(s->count[r] + 1) * sizeof(c2d_vec2));
        rings++;
        st = dc_oracle_clean(s->pts[r], s->count[r], clean[r], &m[r]);
    }
    for (int r = 0; r < rings && st == C2D_OK; r++)
        for (int i = 0; i < m[r] && st == C2D_OK; i++)
            for (int q = r; q < rings && st == C2D_OK; q++)
                for (int j = q == r ? i + 1 : 0; j < m[q]; j++) {
                    if (q == r && (j == i + 1 || (i == 0 && j == m[r] - 1)))
                        continue; /* neighbours in one ring */
                    if (ex_segments_meet(clean[r][i], clean[r][(i + 1) % m[r]], clean[q][j], clean[q][(j + 1) % m[q]])) {
                        st = C2D_ERR_NOT_SIMPLE;
                        break;
                    }
                }
    for (int r = 1; r < rings && st == C2D_OK; r++) {
        if (dc_ring_side(clean[0], m[0], clean[r][0]) <= 0)
            st = C2D_ERR_NOT_SIMPLE;
        for (int q = 1; q < rings; q++)
            if (q != r && dc_ring_side(clean[q], m[q], clean[r][0]) >= 0)
                st = C2D_ERR_NOT_SIMPLE;
    }
    for (int r = 0; r < rings; r++)
        free(clean[r]);
    return st;
}

TEST(decompose_validation_agrees_with_a_quadratic_oracle)
{
    /* Tiny random rings on a 6 x 6 lattice, a hole or two in some: crossings, touching, repeated and
     * collinear points, spikes and flat rings come up all the time. The status must be the oracle's,
     * and every accepted input must decompose correctly. */
    long iters = c2d_test_iterations(4000), accepted = 0;
    for (long it = 0; it < iters && !c2d_test_failed(); it++) {
        dc_shape s;
        dc_init(&s);
        int holes = (int)(c2d_test_rand() % 4);
        if (holes > 2)
            holes = 0;
        for (int r = 0; r <= holes; r++) {
            int n = 3 + (int)(c2d_test_rand() % (r == 0 ? 7 : 3));
            c2d_vec2 *p = dc_ring(&s, n);
            for (int i = 0; i < n; i++) {
                double y, x;
                if (r == 0) {
                    y = (double)(c2d_test_rand() % 7);
                    x = (double)(c2d_test_rand() % 7);
                } else {
                    y = 1 + (double)(c2d_test_rand() % 9) * 0.5;
                    x = 1 + (double)(c2d_test_rand() % 9) * 0.5;
                }
                p[i] = dc_v(x, y);
            }
            s.count[r] = n;
        }
        c2d_status want = dc_oracle(&s);
        c2d_decomposition d;
        memset(&d, 0xA5, sizeof d);
        c2d_status got = dc_run(&s, &d);
        if (got != want) {
            c2d_test_fail(__FILE__, __LINE__, "status %d (%s), the oracle says %d (%s)", (int)got, c2d_status_string(got),
                          (int)want, c2d_status_string(want));
            dc_print("input", &s);
        } else if (got == C2D_OK) {
            accepted++;
            if (!dc_check(&s, &d, 40, 1))
                dc_print("input", &s);
        }
        if (got == C2D_OK)
            c2d_decomposition_free(&d);
        dc_free(&s);
    }
    ENSURE_MSG(c2d_test_failed() || accepted > iters / 20, "only %ld of %ld inputs were valid", accepted, iters);
}

/* ---- size ------------------------------------------------------------------------------------- */

TEST(decompose_10000_point_outlines_run)
{
    /* A 10,000-point star and a 10,000-point rectilinear comb: they decompose (no timing asserted; the
     * grids keep validation and ear search near linear), the parts convex and their areas adding up. */
    for (int kind = 0; kind < 2; kind++) {
        int n = 10000;
        dc_shape s;
        dc_init(&s);
        c2d_vec2 *p = dc_ring(&s, n);
        if (kind == 0) {
            dc_star(p, n, dc_v(3, -7), 100, 0.3, 0.5);
        } else {
            int teeth = n / 4 - 1, m = 0;
            p[m++] = dc_v(0, 0);
            p[m++] = dc_v(2 * teeth + 1, 0);
            for (int t = teeth; t >= 0; t--) {
                p[m++] = dc_v(2 * t + 1, 10 + (t * 7919 % 13));
                p[m++] = dc_v(2 * t, 10 + (t * 7919 % 13));
                if (t > 0) {
                    p[m++] = dc_v(2 * t, 1);
                    p[m++] = dc_v(2 * t - 1, 1);
                }
            }
            n = m;
        }
        s.count[0] = n;
        int parts = dc_expect_ok(&s, 0, 0);
        ENSURE(parts > 0);
        ENSURE_MSG(parts <= 2 * dc_reflex(&s) + 1, "%d parts", parts);
        dc_free(&s);
    }
}
