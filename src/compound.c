/* compound.c - making shapes of convex parts: chains (polylines of segments, open or closed) and
 * concave polygons (simple outlines, optionally with holes, split into convex parts by decompose.c),
 * each with its parts in its own frame and their static set, whose seams are the joints; copying
 * them; and the public part count and part vertices. Layer 5, compound shapes: what the compound
 * files share, and how compounds answer queries, is in compound.h. */
#include "decompose.h"
#include "parts.h"
#include "predicates.h"
#include "sweep.h"

#include <stdlib.h>
#include <string.h>


static int compare_ll(const void *x, const void *y)
{
    long long a = *(const long long *)x, b = *(const long long *)y;
    return (a > b) - (a < b);
}

static int compare_int(const void *x, const void *y)
{
    int a = *(const int *)x, b = *(const int *)y;
    return (a > b) - (a < b);
}

/* An interior edge of the decomposition, its end points in order, and its part. */
typedef struct joint_edge {
    c2d_vec2 lo, hi;
    int part;
} joint_edge;

static int compare_joint(const void *x, const void *y)
{
    const joint_edge *a = (const joint_edge *)x, *b = (const joint_edge *)y;
    if (a->lo.x != b->lo.x)
        return a->lo.x < b->lo.x ? -1 : 1;
    if (a->lo.y != b->lo.y)
        return a->lo.y < b->lo.y ? -1 : 1;
    if (a->hi.x != b->hi.x)
        return a->hi.x < b->hi.x ? -1 : 1;
    if (a->hi.y != b->hi.y)
        return a->hi.y < b->hi.y ? -1 : 1;
    return (a->part > b->part) - (a->part < b->part);
}

/* How the parts of a compound meet (the fields of the same names in c2d_compound): owned arrays. */
typedef struct part_links {
    long long *adj;
    int n_adj;
    int *vstart, *vid;
} part_links;

static void links_free(part_links *l)
{
    free(l->adj);
    free(l->vstart);
    free(l->vid);
}

static c2d_status compound_copy(const c2d_compound *src, c2d_compound **out);
static c2d_status keep_holes(c2d_compound *c, const c2d_vec2 *const *holes, const int *counts, int n, c2d_vec2 pos);
static c2d_status copy_holes(const c2d_compound *src, c2d_compound *dst);

/* A compound over parts already made in its own frame (lpart, owned from now on) that meet as links
 * says (owned too): their world copies, and the set of them with their joints as seams and the cones
 * of their corners cut by every part meeting there. Frees what it was given on failure. */
static c2d_status compound_make(c2d_shape **lpart, int n, part_links links, int one_sided, c2d_compound **out)
{
    c2d_compound *c = (c2d_compound *)calloc(1, sizeof *c);
    if (!c) {
        for (int k = 0; k < n; k++)
            c2d_shape_destroy(lpart[k]);
        free(lpart);
        links_free(&links);
        return C2D_ERR_NO_MEMORY;
    }
    c->n = n;
    c->lpart = lpart;
    c->one_sided = one_sided;
    c->copy = compound_copy;
    c->drop_set = c2d_static_set_destroy;
    if (links.n_adj > 1)
        qsort(links.adj, (size_t)links.n_adj, sizeof *links.adj, compare_ll);
    c->adj = links.adj;
    c->n_adj = links.n_adj;
    c->vstart = links.vstart;
    c->vid = links.vid;
    c->part = (c2d_shape **)calloc((size_t)n, sizeof *c->part);
    c->lpos = (c2d_vec2 *)malloc((size_t)n * sizeof *c->lpos);
    c2d_status st = c->part && c->lpos ? C2D_OK : C2D_ERR_NO_MEMORY;
    for (int k = 0; k < n && st == C2D_OK; k++) {
        c->lpos[k] = lpart[k]->pos;
        st = c2d_shape_clone(lpart[k], &c->part[k]);
    }
    c2d_static_set_options opt;
    memset(&opt, 0, sizeof opt);
    opt.no_auto_seams = 1;
    if (st == C2D_OK)
        st = c2d_static_set_new((const c2d_shape *const *)lpart, n, &opt, &c->set);
    if (st != C2D_OK) {
        c2d_compound_free(c);
        return st;
    }
    c2d_static_set_join_parts(c->set, c);
    *out = c;
    return C2D_OK;
}

/* A copy of n ints (NULL for NULL); *ok = 0 when out of memory. */
static int *copy_ints(const int *src, int n, int *ok)
{
    if (!src)
        return NULL;
    int *d = (int *)malloc((size_t)(n > 0 ? n : 1) * sizeof *d);
    if (!d)
        *ok = 0;
    else
        memcpy(d, src, (size_t)n * sizeof *d);
    return d;
}

/* A copy of src, its set made anew over the copied parts (c2d_compound_clone, through src->copy). */
static c2d_status compound_copy(const c2d_compound *src, c2d_compound **out)
{
    c2d_shape **lpart = (c2d_shape **)calloc((size_t)src->n, sizeof *lpart);
    part_links links;
    int ok = lpart != NULL;
    links.adj = (long long *)malloc((size_t)(src->n_adj > 0 ? src->n_adj : 1) * sizeof *links.adj);
    links.n_adj = src->n_adj;
    links.vstart = copy_ints(src->vstart, src->n + 1, &ok);
    links.vid = copy_ints(src->vid, src->vstart ? src->vstart[src->n] : 0, &ok);
    if (!ok || !links.adj) {
        free(lpart);
        links_free(&links);
        return C2D_ERR_NO_MEMORY;
    }
    memcpy(links.adj, src->adj, (size_t)src->n_adj * sizeof *links.adj);
    for (int k = 0; k < src->n; k++)
        if (c2d_shape_clone(src->lpart[k], &lpart[k]) != C2D_OK) {
            for (int j = 0; j < k; j++)
                c2d_shape_destroy(lpart[j]);
            free(lpart);
            links_free(&links);
            return C2D_ERR_NO_MEMORY;
        }
    c2d_status st = compound_make(lpart, src->n, links, src->one_sided, out);
    if (st == C2D_OK && (st = copy_holes(src, *out)) != C2D_OK)
        c2d_compound_free(*out);
    return st;
}

/* A compound shape of kind type with outline (or chain) points pts[0 .. m) relative to its position
 * pos, and its parts in its frame; places it at pos. Frees lpart and links on failure. */
static c2d_status shape_make(c2d_shape_type type, const c2d_vec2 *pts, int m, c2d_vec2 pos, c2d_shape **lpart,
                             int n, part_links links, int one_sided, c2d_shape **out)
{
    c2d_compound *c;
    c2d_status st = compound_make(lpart, n, links, one_sided, &c);
    if (st != C2D_OK)
        return st;
    c2d_shape *s = c2d_shape_alloc_compound(type, pts, m, c);
    if (!s) {
        c2d_compound_free(c);
        return C2D_ERR_NO_MEMORY;
    }
    s->pos = pos;
    c2d_compound_place(s);
    *out = s;
    return C2D_OK;
}

/* Checks n points (finite, within range). */
static c2d_status check_points(const c2d_vec2 *p, int n)
{
    for (int i = 0; i < n; i++) {
        c2d_status st = c2d_check_vec(p[i]);
        if (st != C2D_OK)
            return st;
    }
    return C2D_OK;
}

/* The centre of the points' box, rounded to a coordinate every point is measured from exactly enough. */
static c2d_vec2 box_centre(const c2d_vec2 *p, int n)
{
    c2d_vec2 lo = p[0], hi = p[0];
    for (int i = 1; i < n; i++) {
        lo = v2(fmin(lo.x, p[i].x), fmin(lo.y, p[i].y));
        hi = v2(fmax(hi.x, p[i].x), fmax(hi.y, p[i].y));
    }
    return v2_mid(lo, hi);
}

c2d_status c2d_chain_new(const c2d_vec2 *points, int n, int flags, c2d_shape **out)
{
    if (!points || !out)
        return C2D_ERR_NULL;
    if (n < 0 || n > C2D_MAX_POLYGON_POINTS || (flags & ~(C2D_CHAIN_CLOSED | C2D_CHAIN_ONE_SIDED)) != 0)
        return C2D_ERR_RANGE;
    c2d_status st = check_points(points, n);
    if (st != C2D_OK)
        return st;
    int closed = (flags & C2D_CHAIN_CLOSED) != 0;
    /* Repeated consecutive points are dropped (and a closed chain's last point equal to its first). */
    c2d_vec2 *q = (c2d_vec2 *)malloc((size_t)(n > 0 ? n : 1) * sizeof *q);
    if (!q)
        return C2D_ERR_NO_MEMORY;
    int m = 0;
    for (int i = 0; i < n; i++)
        if (m == 0 || !v2_eq(points[i], q[m - 1]))
            q[m++] = points[i];
    if (closed && m > 1 && v2_eq(q[0], q[m - 1]))
        m--;
    if (m < (closed ? 3 : 2)) {
        free(q);
        return C2D_ERR_DEGENERATE;
    }
    c2d_vec2 pos = box_centre(q, m);
    int segs = closed ? m : m - 1;
    c2d_shape **lpart = (c2d_shape **)calloc((size_t)segs, sizeof *lpart);
    if (!lpart) {
        free(q);
        return C2D_ERR_NO_MEMORY;
    }
    /* Measured from the position: points a rounding apart may become one, and are then one point. */
    int w = 0;
    for (int i = 0; i < m; i++) {
        c2d_vec2 l = v2_sub(q[i], pos);
        if (w == 0 || !v2_eq(l, q[w - 1]))
            q[w++] = l;
    }
    if (closed && w > 1 && v2_eq(q[0], q[w - 1]))
        w--;
    if (w < (closed ? 3 : 2)) {
        free(lpart);
        free(q);
        return C2D_ERR_DEGENERATE;
    }
    m = w;
    segs = closed ? m : m - 1;
    for (int k = 0; k < segs && st == C2D_OK; k++)
        st = c2d_segment_new(q[k], q[(k + 1) % m], &lpart[k]);
    if (st != C2D_OK) {
        for (int k = 0; k < segs; k++)
            c2d_shape_destroy(lpart[k]);
        free(lpart);
        free(q);
        return st;
    }
    /* Each segment meets the next at a joint (and the last the first, closed). */
    long long *adj = (long long *)malloc((size_t)segs * sizeof *adj);
    int n_adj = 0;
    if (!adj) {
        for (int k = 0; k < segs; k++)
            c2d_shape_destroy(lpart[k]);
        free(lpart);
        free(q);
        return C2D_ERR_NO_MEMORY;
    }
    for (int k = 0; k + 1 < segs; k++)
        adj[n_adj++] = (long long)k * segs + k + 1;
    if (closed)
        adj[n_adj++] = segs - 1; /* the pair (0, segs - 1) */
    part_links links;
    links.adj = adj;
    links.n_adj = n_adj;
    links.vstart = links.vid = NULL;
    st = shape_make(C2D_SHAPE_CHAIN, q, m, pos, lpart, segs, links, (flags & C2D_CHAIN_ONE_SIDED) != 0, out);
    free(q);
    return st;
}

/* A vertex of a decomposition's part, by its point, for numbering the points. */
typedef struct corner_ref {
    c2d_vec2 p;
    int i; /* its index in the decomposition's verts */
} corner_ref;

static int compare_corner(const void *x, const void *y)
{
    const corner_ref *a = (const corner_ref *)x, *b = (const corner_ref *)y;
    if (a->p.x != b->p.x)
        return a->p.x < b->p.x ? -1 : 1;
    if (a->p.y != b->p.y)
        return a->p.y < b->p.y ? -1 : 1;
    return (a->i > b->i) - (a->i < b->i);
}

/* The corners of the parts kept (part k of d is part final_of[k] of parts, or left out when -1):
 * links->vstart and links->vid as struct c2d_compound describes them. Every copy of a point is the
 * same point: the decomposition's vertices are bit-identical copies of the input's. */
static c2d_status number_corners(const c2d_decomposition *d, const int *final_of, int parts, part_links *links)
{
    int total = d->part_start[d->part_count];
    corner_ref *ref = (corner_ref *)malloc((size_t)(total > 0 ? total : 1) * sizeof *ref);
    int *num = (int *)malloc((size_t)(total > 0 ? total : 1) * sizeof *num);
    links->vstart = (int *)calloc((size_t)parts + 1, sizeof *links->vstart);
    links->vid = (int *)malloc((size_t)(total > 0 ? total : 1) * sizeof *links->vid);
    if (!ref || !num || !links->vstart || !links->vid) {
        free(ref);
        free(num);
        return C2D_ERR_NO_MEMORY;
    }
    for (int i = 0; i < total; i++) {
        ref[i].p = d->verts[i];
        ref[i].i = i;
    }
    qsort(ref, (size_t)total, sizeof *ref, compare_corner);
    for (int i = 0, id = 0; i < total; i++) {
        if (i > 0 && !v2_eq(ref[i].p, ref[i - 1].p))
            id++;
        num[ref[i].i] = id;
    }
    for (int k = 0; k < d->part_count; k++)
        if (final_of[k] >= 0)
            links->vstart[final_of[k] + 1] = d->part_start[k + 1] - d->part_start[k];
    for (int k = 0; k < parts; k++)
        links->vstart[k + 1] += links->vstart[k];
    for (int k = 0; k < d->part_count; k++) {
        int f = final_of[k];
        if (f < 0)
            continue;
        int *out = links->vid + links->vstart[f];
        for (int i = d->part_start[k]; i < d->part_start[k + 1]; i++)
            out[i - d->part_start[k]] = num[i];
        qsort(out, (size_t)(links->vstart[f + 1] - links->vstart[f]), sizeof *out, compare_int);
    }
    free(ref);
    free(num);
    return C2D_OK;
}

c2d_status c2d_concave_new(const c2d_vec2 *outline, int n, const c2d_vec2 *const *holes, const int *hole_counts,
                           int hole_count, c2d_shape **out)
{
    if (!out)
        return C2D_ERR_NULL;
    c2d_decomposition d;
    c2d_status st = c2d_decompose(outline, n, holes, hole_counts, hole_count, &d);
    if (st != C2D_OK)
        return st;
    /* The position is the centroid of the area, as for a convex polygon: the parts' centroids weighted
     * by their areas, measured from a point near them so that large coordinates cancel first. As there
     * (shape.c, polygon_centroid), the plain sum of areas is trusted only far above its rounding (the
     * products' sizes, summed in prod): a ring with no part of any thickness, valid however thin, has
     * its parts' areas computed to a few ulps of their exact values instead, never negative, so that
     * its centroid is a mean of points inside it rather than rounding divided by rounding. */
    c2d_vec2 o = d.verts[0], acc = v2(0, 0);
    double area = 0, prod = 0, size = 0;
    for (int k = 0; k < d.part_count; k++) {
        const c2d_vec2 *v = d.verts + d.part_start[k];
        int m = d.part_start[k + 1] - d.part_start[k];
        for (int i = 1; i + 1 < m; i++) {
            c2d_vec2 a = v2_sub(v[0], o), b = v2_sub(v[i], o), c = v2_sub(v[i + 1], o);
            c2d_vec2 ab = v2_sub(b, a), ac = v2_sub(c, a);
            double t = 0.5 * v2_cross(ab, ac);
            area += t;
            prod += 0.5 * (fabs(ab.x * ac.y) + fabs(ab.y * ac.x));
            acc = v2_add(acc, v2_scale(v2_add(v2_add(a, b), c), t / 3));
        }
        for (int i = 0; i < m; i++)
            size = fmax(size, fmax(fabs(v[i].x - o.x), fabs(v[i].y - o.y)));
    }
    c2d_vec2 pos = area > 0 ? v2_add(o, v2_scale(acc, 1 / area)) : o;
    if (!(area > 1e-6 * prod) && size > 0) {
        /* Differences within a part are at most 2 size: scaled to about 2^401, weights below 2^805. */
        int kw = 400 - ilogb(2 * size);
        double wsum = 0;
        acc = v2(0, 0);
        for (int k = 0; k < d.part_count; k++) {
            const c2d_vec2 *v = d.verts + d.part_start[k];
            int m = d.part_start[k + 1] - d.part_start[k];
            for (int i = 1; i + 1 < m; i++) {
                c2d_vec2 a = v2_sub(v[0], o), b = v2_sub(v[i], o), c = v2_sub(v[i + 1], o);
                double w = fmax(c2d_cross_scaled(v[0], v[i], v[i + 1], kw), 0);
                wsum += w;
                acc = v2_mad(acc, w, v2_add(v2_add(a, b), c));
            }
        }
        if (wsum > 0)
            pos = v2_add(o, v2_scale(acc, 1 / (3 * wsum)));
    }
    /* The outline, counter-clockwise, relative to the position: what c2d_shape_get_vertices reports. */
    int m = 0;
    c2d_vec2 *ring = (c2d_vec2 *)malloc((size_t)(n > 0 ? n : 1) * sizeof *ring);
    c2d_shape **lpart = (c2d_shape **)calloc((size_t)d.part_count, sizeof *lpart);
    c2d_vec2 *tmp = (c2d_vec2 *)malloc((size_t)(d.part_start[d.part_count] > 0 ? d.part_start[d.part_count] : 1) *
                                       sizeof *tmp);
    if (!ring || !lpart || !tmp) {
        free(ring);
        free(lpart);
        free(tmp);
        c2d_decomposition_free(&d);
        return C2D_ERR_NO_MEMORY;
    }
    double twice = 0;
    for (int i = 0; i < n; i++) {
        if (m > 0 && v2_eq(outline[i], ring[m - 1]))
            continue;
        ring[m++] = outline[i];
    }
    if (m > 1 && v2_eq(ring[0], ring[m - 1]))
        m--;
    for (int i = 0; i < m; i++)
        twice += v2_cross(v2_sub(ring[i], o), v2_sub(ring[(i + 1) % m], o));
    if (twice < 0)
        for (int i = 0, j = m - 1; i < j; i++, j--) {
            c2d_vec2 t = ring[i];
            ring[i] = ring[j];
            ring[j] = t;
        }
    for (int i = 0; i < m; i++)
        ring[i] = v2_sub(ring[i], pos);
    /* The joints: interior edges pair up end to end (decompose.h), so sorting them by their end points
     * puts twins side by side. */
    int n_int = 0, total = d.part_start[d.part_count];
    for (int i = 0; i < total; i++)
        n_int += d.internal[i] != 0;
    joint_edge *je = (joint_edge *)malloc((size_t)(n_int > 0 ? n_int : 1) * sizeof *je);
    int *final_of = (int *)malloc((size_t)d.part_count * sizeof *final_of);
    long long *adj = (long long *)malloc((size_t)(n_int > 0 ? n_int : 1) * sizeof *adj);
    if (!je || !final_of || !adj) {
        free(je);
        free(final_of);
        free(adj);
        free(ring);
        free(lpart);
        free(tmp);
        c2d_decomposition_free(&d);
        return C2D_ERR_NO_MEMORY;
    }
    n_int = 0;
    for (int k = 0; k < d.part_count; k++)
        for (int i = d.part_start[k]; i < d.part_start[k + 1]; i++) {
            if (!d.internal[i])
                continue;
            int i1 = i + 1 < d.part_start[k + 1] ? i + 1 : d.part_start[k];
            c2d_vec2 a = d.verts[i], b = d.verts[i1];
            int swap = a.x > b.x || (a.x == b.x && a.y > b.y);
            je[n_int].lo = swap ? b : a;
            je[n_int].hi = swap ? a : b;
            je[n_int].part = k;
            n_int++;
        }
    if (n_int > 1)
        qsort(je, (size_t)n_int, sizeof *je, compare_joint);
    /* Each part measured from the position: the subtraction rounds, which can leave a part a hair off
     * convex (taken as its hull) or, a sliver thinner than the rounding, exactly on one line (left out:
     * its neighbours' edges lie within the seam tolerance of each other across it). The points are
     * finite but may lie up to 2 C2D_MAX_COORDINATE from the position (a ring reaching the limit on
     * both sides), which c2d_hull_new would refuse as out of range: c2d_part_hull_new takes them. */
    int parts = 0;
    for (int k = 0; k < d.part_count && st == C2D_OK; k++) {
        int a = d.part_start[k], b = d.part_start[k + 1];
        for (int i = a; i < b; i++)
            tmp[i] = v2_sub(d.verts[i], pos);
        st = c2d_part_hull_new(tmp + a, b - a, &lpart[parts]);
        final_of[k] = st == C2D_OK ? parts : -1;
        if (st == C2D_OK)
            parts++;
        else if (st == C2D_ERR_DEGENERATE)
            st = C2D_OK;
    }
    if (st == C2D_OK && parts == 0)
        st = C2D_ERR_DEGENERATE;
    /* Twins make a joint of the parts kept; across a sliver left out, its neighbours join each other. */
    int n_adj = 0;
    for (int i = 0; i + 1 < n_int && st == C2D_OK; i++) {
        if (!v2_eq(je[i].lo, je[i + 1].lo) || !v2_eq(je[i].hi, je[i + 1].hi))
            continue;
        int pa = final_of[je[i].part], pb = final_of[je[i + 1].part];
        if (pa >= 0 && pb >= 0 && pa != pb)
            adj[n_adj++] = (long long)(pa < pb ? pa : pb) * parts + (pa < pb ? pb : pa);
        i++;
    }
    /* A left-out sliver: the parts it met join each other. Its twins sit beside its edges in je; the
     * (sliver, neighbour) pairs are grouped by sliver, and each group's neighbours paired (a sliver
     * has few edges). adj has room: a group of g neighbours adds at most g - 1 + ... pairs, bounded
     * by the joints the sliver took away. */
    long long *lost = (long long *)malloc((size_t)(n_int > 0 ? n_int : 1) * sizeof *lost);
    int n_lost = 0;
    if (!lost && st == C2D_OK)
        st = C2D_ERR_NO_MEMORY;
    for (int i = 0; i < n_int && st == C2D_OK; i++) {
        if (final_of[je[i].part] >= 0)
            continue;
        int tw = i > 0 && v2_eq(je[i - 1].lo, je[i].lo) && v2_eq(je[i - 1].hi, je[i].hi) ? i - 1
                 : i + 1 < n_int && v2_eq(je[i + 1].lo, je[i].lo) && v2_eq(je[i + 1].hi, je[i].hi) ? i + 1
                                                                                                : -1;
        if (tw >= 0 && final_of[je[tw].part] >= 0)
            lost[n_lost++] = (long long)je[i].part * parts + final_of[je[tw].part];
    }
    if (n_lost > 1)
        qsort(lost, (size_t)n_lost, sizeof *lost, compare_ll);
    for (int g = 0; g < n_lost && st == C2D_OK;) {
        int e = g;
        while (e < n_lost && lost[e] / parts == lost[g] / parts)
            e++;
        for (int x = g; x < e; x++)
            for (int y = x + 1; y < e; y++) {
                int pa = (int)(lost[x] % parts), pb = (int)(lost[y] % parts);
                if (pa == pb)
                    continue;
                long long key = (long long)(pa < pb ? pa : pb) * parts + (pa < pb ? pb : pa);
                long long *grown = (long long *)realloc(adj, (size_t)(n_adj + 1) * sizeof *adj);
                if (!grown) {
                    st = C2D_ERR_NO_MEMORY;
                    break;
                }
                adj = grown;
                adj[n_adj++] = key;
            }
        g = e;
    }
    free(lost);
    /* Duplicates (two parts may meet along more than one joint) are harmless but pointless. */
    if (n_adj > 1) {
        qsort(adj, (size_t)n_adj, sizeof *adj, compare_ll);
        int w = 1;
        for (int i = 1; i < n_adj; i++)
            if (adj[i] != adj[w - 1])
                adj[w++] = adj[i];
        n_adj = w;
    }
    part_links links;
    links.adj = adj;
    links.n_adj = n_adj;
    links.vstart = links.vid = NULL;
    if (st == C2D_OK)
        st = number_corners(&d, final_of, parts, &links);
    free(je);
    free(final_of);
    c2d_decomposition_free(&d);
    free(tmp);
    if (st != C2D_OK) {
        for (int k = 0; k < parts; k++)
            c2d_shape_destroy(lpart[k]);
        free(lpart);
        free(ring);
        links_free(&links);
        return st == C2D_ERR_NO_MEMORY ? st : C2D_ERR_DEGENERATE;
    }
    c2d_shape *s = NULL;
    st = shape_make(C2D_SHAPE_CONCAVE, ring, m, pos, lpart, parts, links, 0, &s);
    free(ring);
    if (st == C2D_OK && (st = keep_holes(c2d_compound_of(s), holes, hole_counts, hole_count, pos)) != C2D_OK)
        c2d_shape_destroy(s);
    else if (st == C2D_OK)
        *out = s;
    return st;
}

/* Keeps the n holes (holes[h] of counts[h] points, as c2d_concave_new took them) in c, measured from
 * the position pos as the outline is. */
static c2d_status keep_holes(c2d_compound *c, const c2d_vec2 *const *holes, const int *counts, int n, c2d_vec2 pos)
{
    if (n <= 0)
        return C2D_OK;
    int total = 0;
    for (int h = 0; h < n; h++)
        total += counts[h];
    c->hole_start = (int *)malloc((size_t)(n + 1) * sizeof *c->hole_start);
    c->hole_pt = (c2d_vec2 *)malloc((size_t)(total > 0 ? total : 1) * sizeof *c->hole_pt);
    if (!c->hole_start || !c->hole_pt)
        return C2D_ERR_NO_MEMORY; /* c2d_compound_free frees what was had */
    c->n_holes = n;
    c->hole_start[0] = 0;
    for (int h = 0, w = 0; h < n; h++) {
        for (int i = 0; i < counts[h]; i++)
            c->hole_pt[w++] = v2_sub(holes[h][i], pos);
        c->hole_start[h + 1] = w;
    }
    return C2D_OK;
}

/* Gives dst (a copy of src, made without them) src's holes. */
static c2d_status copy_holes(const c2d_compound *src, c2d_compound *dst)
{
    if (!src->hole_start)
        return C2D_OK;
    int ok = 1, total = src->hole_start[src->n_holes];
    dst->hole_start = copy_ints(src->hole_start, src->n_holes + 1, &ok);
    dst->hole_pt = (c2d_vec2 *)malloc((size_t)(total > 0 ? total : 1) * sizeof *dst->hole_pt);
    if (!ok || !dst->hole_pt)
        return C2D_ERR_NO_MEMORY; /* c2d_compound_free frees what was had */
    memcpy(dst->hole_pt, src->hole_pt, (size_t)total * sizeof *dst->hole_pt);
    dst->n_holes = src->n_holes;
    return C2D_OK;
}

/* ---- parts ---- */

c2d_status c2d_shape_get_part_count(const c2d_shape *shape, int *out)
{
    if (!shape || !out)
        return C2D_ERR_NULL;
    *out = c2d_is_compound(shape) ? c2d_compound_of(shape)->n : 1;
    return C2D_OK;
}

c2d_status c2d_shape_get_part_vertices(const c2d_shape *shape, int k, c2d_vec2 *out, int capacity, int *count)
{
    if (!shape || !count)
        return C2D_ERR_NULL;
    int n = c2d_is_compound(shape) ? c2d_compound_of(shape)->n : 1;
    if (k < 0 || k >= n)
        return C2D_ERR_RANGE;
    return c2d_shape_get_vertices(c2d_is_compound(shape) ? c2d_compound_of(shape)->part[k] : shape, out, capacity,
                                  count);
}
