/* staticset.c - the static set: private copies of shapes handed in together (bricks, tiles, walls), a
 * uniform grid over their boxes for fast queries, and the seam information kept up to date as shapes
 * are enabled, disabled, marked as neighbours, re-placed, given a velocity or made one-way. The motions
 * through a set live in engine.c, pushout.c, run.c and resolve.c (engine.h). */
#include "records.h"
#include "sweep.h"
#include "turnsweep.h"
#include "trig.h"

#include <stdlib.h>
#include <string.h>

/* The grid never has more cells than this many per shape (plus a constant), whatever the layout. */
#define GRID_CELLS_PER_SHAPE 4

/* The column of x, clamped to the grid. Clamping first makes floor unneeded: below 0 is column 0,
 * at or beyond gw (an integer) the last, and in between truncation is floor. */
static int cell_x(const c2d_static_set *set, double x)
{
    double c = (x - set->origin.x) / set->cell;
    return c < 0 ? 0 : (c >= set->gw ? set->gw - 1 : (int)c);
}
static int cell_y(const c2d_static_set *set, double y)
{
    double c = (y - set->origin.y) / set->cell;
    return c < 0 ? 0 : (c >= set->gh ? set->gh - 1 : (int)c);
}

static int boxes_overlap(c2d_aabb a, c2d_aabb b)
{
    return a.min.x <= b.max.x && b.min.x <= a.max.x && a.min.y <= b.max.y && b.min.y <= a.max.y;
}

static c2d_aabb box_grow(c2d_aabb b, double m)
{
    b.min = v2(b.min.x - m, b.min.y - m);
    b.max = v2(b.max.x + m, b.max.y + m);
    return b;
}

void c2d_static_set_query(const c2d_static_set *set, c2d_aabb box, double horizon, c2d_set_visit visit,
                          void *ctx)
{
    if (set->n == 0)
        return;
    const unsigned char *enabled = set->enabled;
    const c2d_set_entry *entries = set->entries;
    for (int k = 0; k < set->loose_count; k++) {
        int i = set->loose[k];
        if (!enabled[i])
            continue;
        c2d_aabb b = entries[i].box;
        if (horizon > 0 && c2d_static_set_spin(set, i) != 0) {
            /* A turning member stays within its reach of its pivot. */
            c2d_vec2 c = set->spin_pivot[i];
            double r = set->spin_reach[i];
            b.min = v2(c.x - r, c.y - r);
            b.max = v2(c.x + r, c.y + r);
        }
        /* Comparisons, not fmin and fmax (libm calls, for NaN, which w never is), per loose member per query. */
        c2d_vec2 w = v2_scale(c2d_static_set_velocity(set, i), horizon);
        b.min = v2(b.min.x + (w.x < 0 ? w.x : 0.0), b.min.y + (w.y < 0 ? w.y : 0.0));
        b.max = v2(b.max.x + (w.x > 0 ? w.x : 0.0), b.max.y + (w.y > 0 ? w.y : 0.0));
        if (boxes_overlap(b, box) && visit(ctx, i))
            return;
    }
    if (box.max.x < set->origin.x || box.max.y < set->origin.y || box.min.x > set->end.x || box.min.y > set->end.y)
        return;
    int qx0 = cell_x(set, box.min.x), qx1 = cell_x(set, box.max.x);
    int qy0 = cell_y(set, box.min.y), qy1 = cell_y(set, box.max.y);
    const int *start = set->cell_start, *items = set->cell_items;
    for (int cy = qy0; cy <= qy1; cy++) {
        for (int cx = qx0; cx <= qx1; cx++) {
            int c = cy * set->gw + cx;
            for (int k = start[c], end = start[c + 1]; k < end; k++) {
                int i = items[k];
                if (i < 0)
                    continue; /* a member that left the grid */
                const c2d_set_entry *en = &entries[i];
                /* A shape spanning several visited cells is reported only from the first of them, so
                 * no "visited" marks are needed and queries stay read-only (thread-safe). */
                if (cx != (en->cx > qx0 ? en->cx : qx0) || cy != (en->cy > qy0 ? en->cy : qy0))
                    continue;
                if (!enabled[i] || !boxes_overlap(en->box, box))
                    continue;
                if (visit(ctx, i))
                    return;
            }
        }
    }
}

static c2d_status build_grid(c2d_static_set *set)
{
    int n = set->n;
    c2d_aabb all = set->entries[0].box;
    double size = 0;
    for (int i = 0; i < n; i++) {
        c2d_aabb b = set->entries[i].box;
        all.min = v2(fmin(all.min.x, b.min.x), fmin(all.min.y, b.min.y));
        all.max = v2(fmax(all.max.x, b.max.x), fmax(all.max.y, b.max.y));
        size += fmax(b.max.x - b.min.x, b.max.y - b.min.y);
    }
    double w = all.max.x - all.min.x, h = all.max.y - all.min.y;
    /* Cells about the mean shape size: a ball or tile query then touches a handful of cells. */
    double cell = fmax(size / n, fmax(w, h) * 1e-6);
    if (!(cell > 0))
        cell = 1.0;
    double limit = (double)GRID_CELLS_PER_SHAPE * n + 64;
    while ((floor(w / cell) + 1) * (floor(h / cell) + 1) > limit)
        cell *= 2;
    set->origin = all.min;
    set->cell = cell;
    set->gw = (int)floor(w / cell) + 1;
    set->gh = (int)floor(h / cell) + 1;
    set->end = v2(set->origin.x + set->gw * set->cell, set->origin.y + set->gh * set->cell);
    for (int i = 0; i < n; i++) {
        set->entries[i].cx = cell_x(set, set->entries[i].box.min.x);
        set->entries[i].cy = cell_y(set, set->entries[i].box.min.y);
    }
    int cells = set->gw * set->gh;
    set->cell_start = (int *)calloc((size_t)cells + 1, sizeof(int));
    if (!set->cell_start)
        return C2D_ERR_NO_MEMORY;
    for (int pass = 0; pass < 2; pass++) {
        /* Pass 0 counts the entries per cell, pass 1 fills them behind the prefix sums. */
        for (int i = 0; i < n; i++) {
            c2d_aabb b = set->entries[i].box;
            for (int cy = cell_y(set, b.min.y); cy <= cell_y(set, b.max.y); cy++)
                for (int cx = cell_x(set, b.min.x); cx <= cell_x(set, b.max.x); cx++) {
                    int c = cy * set->gw + cx;
                    if (pass == 0)
                        set->cell_start[c + 1]++;
                    else
                        set->cell_items[set->cell_start[c]++] = i;
                }
        }
        if (pass == 0) {
            for (int c = 0; c < cells; c++)
                set->cell_start[c + 1] += set->cell_start[c];
            set->cell_items = (int *)malloc((size_t)(set->cell_start[cells] > 0 ? set->cell_start[cells] : 1) *
                                            sizeof(int));
            if (!set->cell_items)
                return C2D_ERR_NO_MEMORY;
        } else {
            /* Filling advanced each start to the next cell's start: shift back. */
            for (int c = cells; c > 0; c--)
                set->cell_start[c] = set->cell_start[c - 1];
            set->cell_start[0] = 0;
        }
    }
    return C2D_OK;
}

/* The gap up to which the parts of one compound join: their shared edges are the same points, apart
 * only by the rounding of placing each part. At most this for any two parts of the set. */
static double part_tolerance(const c2d_static_set *set)
{
    return 1e-9 * (1.0 + set->magnitude);
}

/* The automatic tolerance of members i and j: 1e-9 of their own coordinates, which is what the rounding
 * of placing them (and of measuring one's vertices against the other's edges) scales with. The set's
 * magnitude would take in shapes far away: a segment a billion long anywhere in the set made it 1
 * unit, so that 1-wide gaps between small tiles became seams, and joints of a small concave member
 * were matched as loosely as some of its parts' edges are long. */
static double own_tolerance(const c2d_static_set *set, int i, int j)
{
    double m = c2d_max_num(c2d_aabb_magnitude(set->entries[i].box), c2d_aabb_magnitude(set->entries[j].box));
    return 1e-9 * (1.0 + m);
}

/* How far around a box to look for shapes that may share seams with what lies in it: the largest
 * tolerance any pair can have. An automatic one is at most 1e-9 of the set's magnitude as the members
 * stand now (it follows a member re-placed far away). */
static double search_margin(const c2d_static_set *set)
{
    return c2d_max_num(set->max_tolerance, 1e-9 * (1.0 + set->magnitude));
}

/* Whether two one-way directions (unit vectors, or zero) are the same: (1, 1) and (3, 3) normalise a
 * rounding apart, and must still join. */
static int same_direction(c2d_vec2 a, c2d_vec2 b)
{
    int za = a.x == 0 && a.y == 0, zb = b.x == 0 && b.y == 0;
    if (za || zb)
        return za == zb;
    return v2_dot(a, b) > 0 && fabs(v2_cross(a, b)) <= 1e-12;
}

/* The tolerance up to which parts a and b of compound c (members i and j) join, or 0 when they do not
 * meet; *corner_only = 1 when they meet at a corner only. */
static double compound_tolerance(const c2d_compound *c, int a, int b, double tol, int *corner_only)
{
    int meet = c2d_compound_meet(c, a, b);
    *corner_only = meet == C2D_PARTS_CORNER;
    return meet == C2D_PARTS_APART ? 0 : tol;
}

/* The seam tolerance between shapes i and j, or 0 when they make no seams; *corner_only = 1 when they
 * meet only at a corner, whose cone they cut but where neither hides an edge of the other. Members
 * that move differently, or block from different sides, never join: a face hidden by a paddle would be
 * exposed the moment it moved on, and a one-way platform's top is no seam of the wall beside it. */
static double pair_tolerance(const c2d_static_set *set, int i, int j, int *corner_only)
{
    *corner_only = 0;
    /* The parts of one chain or concave polygon join exactly where they meet along a joint, which is
     * never surface; elsewhere never (a hole narrower than the seam tolerance stays a hole). Around a
     * corner of a concave polygon every part there counts, the two at the ends of its fan too, though
     * they meet only at that point: the union's normals there are those all of them share, and
     * without the far part's faces the corner where a flat meets a rise kept the part between's
     * normals, a wall the slope does not have. */
    if (set->parts_of)
        return compound_tolerance(set->parts_of, i, j, part_tolerance(set), corner_only);
    if (set->owner && set->owner[i] == set->owner[j]) {
        int o = set->owner[i];
        return compound_tolerance(c2d_compound_of(set->user[o]), i - set->first[o], j - set->first[o],
                                  fmax(set->seam_tolerance, own_tolerance(set, i, j)), corner_only);
    }
    if (!v2_eq(c2d_static_set_velocity(set, i), c2d_static_set_velocity(set, j)) ||
        c2d_static_set_spin(set, i) != 0 || c2d_static_set_spin(set, j) != 0 ||
        !same_direction(c2d_static_set_one_way(set, i), c2d_static_set_one_way(set, j)))
        return 0;
    double tol = !set->auto_seams ? 0 : set->seam_tolerance > 0 ? set->seam_tolerance : own_tolerance(set, i, j);
    for (int k = 0; k < set->pair_count; k++) {
        int a = set->pairs[2 * k], b = set->pairs[2 * k + 1];
        if ((a == i && b == j) || (a == j && b == i))
            tol = fmax(tol, set->pair_tolerance[k]);
    }
    return tol;
}

typedef struct gather_ctx {
    const c2d_static_set *set;
    const unsigned char *solid; /* NULL: every enabled shape counts */
    c2d_seam_neighbour *out;
    int self;
    int count;
} gather_ctx;

static int gather_neighbour(void *ctx, int j)
{
    gather_ctx *g = (gather_ctx *)ctx;
    if (j == g->self || (g->solid && !g->solid[j]))
        return 0;
    int corner_only;
    double tol = pair_tolerance(g->set, g->self, j, &corner_only);
    if (tol > 0) {
        g->out[g->count].core = &g->set->core[j];
        g->out[g->count].tolerance = tol;
        g->out[g->count].corner_only = corner_only;
        g->count++;
    }
    return 0;
}

static void seams_among(const c2d_static_set *set, int i, const unsigned char *solid, c2d_seam_neighbour *scratch,
                        unsigned char *ghost, c2d_cone *vcone)
{
    gather_ctx g;
    g.set = set;
    g.solid = solid;
    g.out = scratch;
    g.self = i;
    g.count = 0;
    c2d_static_set_query(set, box_grow(set->entries[i].box, search_margin(set)), 0, gather_neighbour, &g);
    c2d_seams_compute(&set->core[i], scratch, g.count, ghost, vcone);
}

static void recompute_seams(c2d_static_set *set, int i)
{
    seams_among(set, i, NULL, set->scratch, set->ghost + set->offset[i], set->vcone + set->offset[i]);
}

void c2d_static_set_seams_among(const c2d_static_set *set, int i, const unsigned char *solid,
                                c2d_seam_neighbour *scratch, unsigned char *ghost, c2d_cone *vcone)
{
    seams_among(set, i, solid, scratch, ghost, vcone);
}

typedef struct near_ctx {
    const unsigned char *solid;
    unsigned char *mark;
} near_ctx;

static int mark_solid(void *ctx, int j)
{
    near_ctx *c = (near_ctx *)ctx;
    if (c->solid[j])
        c->mark[j] = 1;
    return 0;
}

void c2d_static_set_mark_near(const c2d_static_set *set, int j, const unsigned char *solid, unsigned char *mark)
{
    near_ctx c;
    c.solid = solid;
    c.mark = mark;
    c2d_static_set_query(set, box_grow(set->entries[j].box, search_margin(set)), 0, mark_solid, &c);
}

typedef struct refresh_ctx {
    c2d_static_set *set;
} refresh_ctx;

static int refresh_one(void *ctx, int j)
{
    recompute_seams(((refresh_ctx *)ctx)->set, j);
    return 0;
}

/* Recomputes the seams of every enabled shape whose box meets box grown by the search margin. */
static void refresh_box(c2d_static_set *set, c2d_aabb box)
{
    refresh_ctx r;
    r.set = set;
    c2d_static_set_query(set, box_grow(box, search_margin(set)), 0, refresh_one, &r);
}

/* Recomputes the seams of shape i and of every enabled shape near it. */
static void refresh_around(c2d_static_set *set, int i)
{
    if (set->enabled[i])
        recompute_seams(set, i);
    refresh_box(set, set->entries[i].box);
}

void c2d_static_set_destroy(c2d_static_set *set)
{
    if (!set)
        return;
    free(set->core);
    free(set->placed);
    free(set->enabled);
    free(set->offset);
    free(set->ghost);
    free(set->vcone);
    free(set->scratch);
    free(set->pairs);
    free(set->pair_tolerance);
    free(set->cell_start);
    free(set->cell_items);
    free(set->entries);
    free(set->box_tolerance);
    if (set->local)
        for (int i = 0; i < set->n; i++)
            c2d_shape_destroy(set->local[i]);
    free(set->local);
    if (set->user)
        for (int i = 0; i < set->n_public; i++)
            c2d_shape_destroy(set->user[i]);
    free(set->user);
    free(set->own_faces);
    free(set->first);
    free(set->owner);
    free(set->loose);
    free(set->velocity);
    free(set->spin);
    free(set->spin_pivot);
    free(set->spin_reach);
    free(set->pivot_local);
    free(set->one_way);
    free(set->values);
    free(set);
}

static c2d_status set_member_vec(const c2d_static_set *set, c2d_vec2 **array, int i, c2d_vec2 v);

/* The set of the n convex shapes (options checked by the caller); owner, when not NULL, names the
 * caller's shape each one is a part of (its n entries are taken over, also on failure). */
static c2d_status set_build(const c2d_shape *const *shapes, int n, const c2d_static_set_options *options,
                            int *owner, c2d_static_set **out)
{
    double user_tol = options ? options->seam_tolerance : 0.0;

    c2d_static_set *set = (c2d_static_set *)calloc(1, sizeof *set);
    if (!set) {
        free(owner);
        return C2D_ERR_NO_MEMORY;
    }
    set->owner = owner;
    set->n_public = n;
    size_t slots = n > 0 ? (size_t)n : 1;
    set->core = (c2d_core *)calloc(slots, sizeof(c2d_core));
    set->entries = (c2d_set_entry *)calloc(slots, sizeof(c2d_set_entry));
    set->box_tolerance = (double *)malloc(slots * sizeof(double));
    set->enabled = (unsigned char *)malloc(slots);
    set->offset = (int *)calloc(slots + 1, sizeof(int));
    set->scratch = (c2d_seam_neighbour *)malloc(slots * sizeof(c2d_seam_neighbour));
    set->local = (c2d_shape **)calloc(slots, sizeof(c2d_shape *));
    set->loose = (int *)malloc(slots * sizeof(int));
    if (!set->core || !set->entries || !set->box_tolerance || !set->enabled || !set->offset || !set->scratch || !set->local ||
        !set->loose) {
        c2d_static_set_destroy(set);
        return C2D_ERR_NO_MEMORY;
    }
    set->n = n;
    for (int i = 0; i < n; i++)
        if (c2d_shape_clone(shapes[i], &set->local[i]) != C2D_OK) {
            c2d_static_set_destroy(set);
            return C2D_ERR_NO_MEMORY;
        }
    for (int i = 0; i < n; i++) {
        set->enabled[i] = 1;
        set->offset[i + 1] = set->offset[i] + shapes[i]->count;
        set->entries[i].box = c2d_shape_aabb(shapes[i]);
        set->magnitude = fmax(set->magnitude, c2d_aabb_magnitude(set->entries[i].box));
        set->box_tolerance[i] = c2d_sweep_tolerance(c2d_aabb_magnitude(set->entries[i].box));
        set->extent = fmax(set->extent, c2d_aabb_extent(set->entries[i].box));
        if (shapes[i]->count > set->max_count)
            set->max_count = shapes[i]->count;
    }
    /* Each core is placed once, its vertices then its normals (again only when its member is re-placed). */
    set->placed = (c2d_vec2 *)malloc((set->offset[n] > 0 ? 2 * (size_t)set->offset[n] : 1) * sizeof(c2d_vec2));
    if (!set->placed) {
        c2d_static_set_destroy(set);
        return C2D_ERR_NO_MEMORY;
    }
    for (int i = 0; i < n; i++) {
        c2d_vec2 *v = set->placed + 2 * (size_t)set->offset[i];
        set->core[i] = c2d_world_core(shapes[i], v, v + shapes[i]->count);
    }
    size_t feats = set->offset[n] > 0 ? (size_t)set->offset[n] : 1;
    set->ghost = (unsigned char *)calloc(feats, 1);
    set->vcone = (c2d_cone *)calloc(feats, sizeof(c2d_cone));
    if (!set->ghost || !set->vcone || (n > 0 && build_grid(set) != C2D_OK)) {
        c2d_static_set_destroy(set);
        return C2D_ERR_NO_MEMORY;
    }
    set->auto_seams = !(options && options->no_auto_seams);
    /* The caller's tolerance, or 0: each pair's own (own_tolerance). The parts of a chain or concave
     * member join with their own even without automatic seams. */
    set->seam_tolerance = set->auto_seams ? user_tol : 0;
    set->built_magnitude = set->magnitude;
    set->built_extent = set->extent;
    set->max_tolerance = set->auto_seams ? user_tol : 0;
    *out = set;
    return C2D_OK;
}

/* Seams of every shape, once the set is complete. */
static void all_seams(c2d_static_set *set)
{
    for (int i = 0; i < set->n; i++)
        recompute_seams(set, i);
}

void c2d_static_set_join_parts(c2d_static_set *set, const c2d_compound *c)
{
    set->parts_of = c;
    all_seams(set);
}

c2d_status c2d_static_set_new(const c2d_shape *const *shapes, int n, const c2d_static_set_options *options,
                              c2d_static_set **out)
{
    if (!out || (n > 0 && !shapes))
        return C2D_ERR_NULL;
    if (n < 0 || n > 0x1000000)
        return C2D_ERR_RANGE;
    int parts = 0, compounds = 0;
    for (int i = 0; i < n; i++) {
        if (!shapes[i])
            return C2D_ERR_NULL;
        int k = c2d_is_compound(shapes[i]) ? c2d_compound_count(shapes[i]) : 1;
        compounds += k != 1 || c2d_is_compound(shapes[i]);
        if (parts > 0x1000000 - k)
            return C2D_ERR_RANGE;
        parts += k;
    }
    /* The options before anything is allocated. */
    double user_tol = options ? options->seam_tolerance : 0.0;
    if (!isfinite(user_tol))
        return C2D_ERR_NOT_FINITE;
    if (user_tol < 0)
        return C2D_ERR_SIZE;
    if (user_tol > C2D_MAX_COORDINATE)
        return C2D_ERR_RANGE;
    if (!compounds) {
        c2d_status st = set_build(shapes, n, options, NULL, out);
        if (st == C2D_OK)
            all_seams(*out);
        return st;
    }
    /* Chains and concave polygons join as their convex parts; the caller's indices name the whole. */
    const c2d_shape **flat = (const c2d_shape **)malloc((size_t)parts * sizeof *flat);
    int *owner = (int *)malloc((size_t)parts * sizeof *owner);
    int *first = (int *)malloc(((size_t)n + 1) * sizeof *first);
    c2d_shape **user = (c2d_shape **)calloc(n > 0 ? (size_t)n : 1, sizeof *user);
    c2d_status st = flat && owner && first && user ? C2D_OK : C2D_ERR_NO_MEMORY;
    for (int i = 0, m = 0; i < n && st == C2D_OK; i++) {
        first[i] = m;
        if (c2d_is_compound(shapes[i])) {
            for (int k = 0; k < c2d_compound_count(shapes[i]); k++) {
                flat[m] = c2d_compound_part(shapes[i], k);
                owner[m++] = i;
            }
            st = c2d_shape_clone(shapes[i], &user[i]);
        } else {
            flat[m] = shapes[i];
            owner[m++] = i;
        }
    }
    first[n] = parts;
    c2d_static_set *set = NULL;
    if (st == C2D_OK) {
        st = set_build(flat, parts, options, owner, &set);
        owner = NULL; /* the set's now, freed or kept */
    }
    free(flat);
    free(owner);
    if (st != C2D_OK) {
        for (int i = 0; i < n && user; i++)
            c2d_shape_destroy(user[i]);
        free(user);
        free(first);
        return st;
    }
    set->n_public = n;
    set->first = first;
    set->user = user;
    set->own_faces = (unsigned char *)calloc(n > 0 ? (size_t)n : 1, 1);
    if (!set->own_faces)
        st = C2D_ERR_NO_MEMORY;
    /* One-sided chains: each segment blocks from its right. */
    for (int i = 0; i < n && st == C2D_OK; i++)
        if (user[i])
            for (int k = 0; k < c2d_compound_count(user[i]) && st == C2D_OK; k++) {
                c2d_vec2 d = c2d_compound_part_one_way(user[i], k);
                if (d.x != 0 || d.y != 0) {
                    st = set_member_vec(set, &set->one_way, first[i] + k, d);
                    set->own_faces[i] = 1;
                }
            }
    if (st != C2D_OK) {
        c2d_static_set_destroy(set);
        return st;
    }
    all_seams(set);
    *out = set;
    return C2D_OK;
}

c2d_status c2d_static_set_get_count(const c2d_static_set *set, int *out)
{
    if (!set || !out)
        return C2D_ERR_NULL;
    *out = set->n_public;
    return C2D_OK;
}

/* The members that make up the caller's shape i: [first, end). */
static int part_first(const c2d_static_set *set, int i)
{
    return set->first ? set->first[i] : i;
}
static int part_end(const c2d_static_set *set, int i)
{
    return set->first ? set->first[i + 1] : i + 1;
}

/* Records members i and j as neighbours with the given tolerance. */
static c2d_status mark_pair(c2d_static_set *set, int i, int j, double tolerance)
{
    if (set->pair_count == set->pair_capacity) {
        int cap = set->pair_capacity ? 2 * set->pair_capacity : 8;
        int *pairs = (int *)realloc(set->pairs, (size_t)cap * 2 * sizeof(int));
        if (!pairs)
            return C2D_ERR_NO_MEMORY;
        set->pairs = pairs;
        double *tols = (double *)realloc(set->pair_tolerance, (size_t)cap * sizeof(double));
        if (!tols)
            return C2D_ERR_NO_MEMORY;
        set->pair_tolerance = tols;
        set->pair_capacity = cap;
    }
    set->pairs[2 * set->pair_count] = i;
    set->pairs[2 * set->pair_count + 1] = j;
    set->pair_tolerance[set->pair_count] = tolerance;
    set->pair_count++;
    set->max_tolerance = fmax(set->max_tolerance, tolerance);
    if (set->enabled[i])
        recompute_seams(set, i);
    if (set->enabled[j])
        recompute_seams(set, j);
    return C2D_OK;
}

c2d_status c2d_static_set_mark_neighbours(c2d_static_set *set, int i, int j, double tolerance)
{
    if (!set)
        return C2D_ERR_NULL;
    if (i < 0 || j < 0 || i >= set->n_public || j >= set->n_public || i == j)
        return C2D_ERR_RANGE;
    c2d_status st = c2d_check_number(tolerance);
    if (st != C2D_OK)
        return st;
    if (!(tolerance > 0))
        return C2D_ERR_SIZE;
    for (int a = part_first(set, i); a < part_end(set, i) && st == C2D_OK; a++)
        for (int b = part_first(set, j); b < part_end(set, j) && st == C2D_OK; b++)
            st = mark_pair(set, a, b, tolerance);
    return st;
}

c2d_status c2d_static_set_set_enabled(c2d_static_set *set, int i, int enabled)
{
    if (!set)
        return C2D_ERR_NULL;
    if (i < 0 || i >= set->n_public)
        return C2D_ERR_RANGE;
    /* Every part first, then the seams around them: refreshing after each part recomputed the parts
     * still enabled without those disabled before them, so a concave member lost its joints (and kept
     * them lost while disabled, though a disabled shape keeps the flags it had). */
    unsigned char e = enabled ? 1 : 0;
    int changed = 0;
    for (int m = part_first(set, i); m < part_end(set, i); m++) {
        changed |= set->enabled[m] != e;
        set->enabled[m] = e;
    }
    for (int m = part_first(set, i); m < part_end(set, i) && changed; m++)
        refresh_around(set, m);
    return C2D_OK;
}

c2d_status c2d_static_set_is_seam(const c2d_static_set *set, int i, int e, int *out)
{
    if (!set || !out)
        return C2D_ERR_NULL;
    if (i < 0 || i >= set->n_public || e < 0)
        return C2D_ERR_RANGE;
    /* A chain's or concave polygon's edges are those of its parts, one part after the other. */
    for (int m = part_first(set, i); m < part_end(set, i); m++) {
        int edges = c2d_core_edges(&set->core[m]);
        if (e < edges) {
            *out = set->ghost[set->offset[m] + e] != 0;
            return C2D_OK;
        }
        e -= edges;
    }
    return C2D_ERR_RANGE;
}

/* Takes member i out of the grid (its cells list -1 instead) into the loose list, which every query
 * reads one by one: a member that moves would otherwise have to be re-filed in cells sized for the
 * set as built. Its cells are those of its box at build time, which the grid still holds. */
static void make_loose(c2d_static_set *set, int i)
{
    for (int k = 0; k < set->loose_count; k++)
        if (set->loose[k] == i)
            return;
    c2d_aabb b = set->entries[i].box; /* not yet re-placed: the box the grid filed it under */
    for (int cy = cell_y(set, b.min.y); cy <= cell_y(set, b.max.y); cy++)
        for (int cx = cell_x(set, b.min.x); cx <= cell_x(set, b.max.x); cx++) {
            int c = cy * set->gw + cx;
            for (int k = set->cell_start[c]; k < set->cell_start[c + 1]; k++)
                if (set->cell_items[k] == i)
                    set->cell_items[k] = -1;
        }
    int at = set->loose_count;
    while (at > 0 && set->loose[at - 1] > i) {
        set->loose[at] = set->loose[at - 1];
        at--;
    }
    set->loose[at] = i;
    set->loose_count++;
}

/* Places member m's copy as part (pos, angle, c, s) and refreshes the seams around its old and new
 * places (the neighbours it left lose their seams with it, those it joins gain them). */
static void place_member(c2d_static_set *set, int m, const c2d_shape *as)
{
    c2d_shape *s = set->local[m];
    c2d_shape_place(s, as->pos, as->angle, as->c, as->s);
    make_loose(set, m);
    c2d_aabb old_box = set->entries[m].box, box = c2d_shape_aabb(s);
    c2d_vec2 *v = set->placed + 2 * (size_t)set->offset[m];
    set->core[m] = c2d_world_core(s, v, v + s->count);
    set->entries[m].box = box;
    set->box_tolerance[m] = c2d_sweep_tolerance(c2d_aabb_magnitude(box));
    /* The touching tolerance follows the shapes: a member that went far away and came back leaves
     * it as it was, not as large as where the member went. */
    double mag = set->built_magnitude, ext = set->built_extent;
    for (int k = 0; k < set->loose_count; k++) {
        mag = fmax(mag, c2d_aabb_magnitude(set->entries[set->loose[k]].box));
        ext = fmax(ext, c2d_aabb_extent(set->entries[set->loose[k]].box));
    }
    set->magnitude = mag;
    set->extent = ext;
    refresh_box(set, old_box);
    refresh_box(set, box);
}

/* The caller's shape i as it stands (a compound's copy, or a convex member's own). */
static const c2d_shape *public_shape(const c2d_static_set *set, int i)
{
    return set->user && set->user[i] ? set->user[i] : set->local[part_first(set, i)];
}

/* Places the pivot of caller's shape i's members where the shape now stands. */
static void place_pivot(c2d_static_set *set, int i)
{
    if (!set->spin)
        return;
    c2d_vec2 c = c2d_shape_frame_point(public_shape(set, i), set->pivot_local[i]);
    for (int m = part_first(set, i); m < part_end(set, i); m++) {
        const c2d_core *k = &set->core[m];
        double r2 = 0;
        for (int v = 0; v < k->count; v++)
            r2 = fmax(r2, v2_len2(v2_sub(k->v[v], c)));
        set->spin_pivot[m] = c;
        set->spin_reach[m] = sqrt(r2) + k->radius;
    }
}

c2d_status c2d_static_set_set_transform(c2d_static_set *set, int i, c2d_vec2 position, double angle)
{
    if (!set)
        return C2D_ERR_NULL;
    if (i < 0 || i >= set->n_public)
        return C2D_ERR_RANGE;
    int m0 = part_first(set, i);
    c2d_shape *s = set->user && set->user[i] ? set->user[i] : set->local[m0];
    c2d_vec2 old_pos = s->pos;
    double old_angle = s->angle;
    c2d_status st = c2d_shape_set_transform(s, position, angle);
    if (st != C2D_OK)
        return st;
    if (c2d_aabb_magnitude(c2d_shape_aabb(s)) > C2D_MAX_COORDINATE) {
        c2d_shape_set_transform(s, old_pos, old_angle);
        return C2D_ERR_RANGE;
    }
    if (s == set->local[m0]) {
        /* A convex member is its own copy: placed already; its core and seams follow. */
        c2d_shape probe = *s;
        place_member(set, m0, &probe);
        place_pivot(set, i);
        return C2D_OK;
    }
    for (int k = 0; k < c2d_compound_count(s); k++) {
        int m = m0 + k;
        place_member(set, m, c2d_compound_part(s, k));
        c2d_vec2 d = c2d_compound_part_one_way(s, k);
        if (set->own_faces[i] && (d.x != 0 || d.y != 0))
            set->one_way[m] = d; /* a one-sided chain's segments face where they now face */
    }
    place_pivot(set, i);
    return C2D_OK;
}

c2d_status c2d_static_set_get_transform(const c2d_static_set *set, int i, c2d_vec2 *out_position,
                                        double *out_angle)
{
    if (!set || (!out_position && !out_angle))
        return C2D_ERR_NULL;
    if (i < 0 || i >= set->n_public)
        return C2D_ERR_RANGE;
    const c2d_shape *s = set->user && set->user[i] ? set->user[i] : set->local[part_first(set, i)];
    if (out_position)
        *out_position = s->pos;
    if (out_angle)
        *out_angle = s->angle;
    return C2D_OK;
}

c2d_status c2d_static_set_get_shape(const c2d_static_set *set, int i, const c2d_shape **out)
{
    if (!set || !out)
        return C2D_ERR_NULL;
    if (i < 0 || i >= set->n_public)
        return C2D_ERR_RANGE;
    *out = public_shape(set, i);
    return C2D_OK;
}

c2d_status c2d_static_set_get_enabled(const c2d_static_set *set, int i, int *out)
{
    if (!set || !out)
        return C2D_ERR_NULL;
    if (i < 0 || i >= set->n_public)
        return C2D_ERR_RANGE;
    *out = set->enabled[part_first(set, i)] != 0; /* a chain's or concave polygon's parts go together */
    return C2D_OK;
}

c2d_status c2d_static_set_set_user(c2d_static_set *set, int i, uintptr_t user)
{
    if (!set)
        return C2D_ERR_NULL;
    if (i < 0 || i >= set->n_public)
        return C2D_ERR_RANGE;
    if (!set->values) {
        if (user == 0)
            return C2D_OK; /* every shape's value is 0 until one is given */
        set->values = (uintptr_t *)calloc((size_t)set->n_public, sizeof *set->values);
        if (!set->values)
            return C2D_ERR_NO_MEMORY;
    }
    set->values[i] = user;
    return C2D_OK;
}

c2d_status c2d_static_set_get_user(const c2d_static_set *set, int i, uintptr_t *out)
{
    if (!set || !out)
        return C2D_ERR_NULL;
    if (i < 0 || i >= set->n_public)
        return C2D_ERR_RANGE;
    *out = c2d_static_set_value(set, i);
    return C2D_OK;
}

/* Stores v as member i's entry of *array (allocated zeroed on first use; NULL stays NULL for zero). */
static c2d_status set_member_vec(const c2d_static_set *set, c2d_vec2 **array, int i, c2d_vec2 v)
{
    if (!*array) {
        if (v.x == 0 && v.y == 0)
            return C2D_OK;
        *array = (c2d_vec2 *)calloc((size_t)set->n, sizeof(c2d_vec2));
        if (!*array)
            return C2D_ERR_NO_MEMORY;
    }
    (*array)[i] = v;
    return C2D_OK;
}

c2d_status c2d_static_set_set_velocity(c2d_static_set *set, int i, c2d_vec2 velocity)
{
    if (!set)
        return C2D_ERR_NULL;
    if (i < 0 || i >= set->n_public)
        return C2D_ERR_RANGE;
    c2d_status st = c2d_check_vec(velocity);
    if (st != C2D_OK)
        return st;
    for (int m = part_first(set, i); m < part_end(set, i); m++) {
        if (v2_eq(c2d_static_set_velocity(set, m), velocity))
            continue;
        if ((st = set_member_vec(set, &set->velocity, m, velocity)) != C2D_OK)
            return st;
        if (velocity.x != 0 || velocity.y != 0)
            make_loose(set, m);
    }
    for (int m = part_first(set, i); m < part_end(set, i); m++)
        refresh_around(set, m);
    return C2D_OK;
}

c2d_status c2d_static_set_get_velocity(const c2d_static_set *set, int i, c2d_vec2 *out)
{
    if (!set || !out)
        return C2D_ERR_NULL;
    if (i < 0 || i >= set->n_public)
        return C2D_ERR_RANGE;
    *out = c2d_static_set_velocity(set, part_first(set, i));
    return C2D_OK;
}

c2d_status c2d_static_set_set_one_way(c2d_static_set *set, int i, c2d_vec2 direction)
{
    if (!set)
        return C2D_ERR_NULL;
    if (i < 0 || i >= set->n_public)
        return C2D_ERR_RANGE;
    c2d_status st = c2d_check_vec(direction);
    if (st != C2D_OK)
        return st;
    c2d_vec2 u = v2(0, 0);
    if (direction.x != 0 || direction.y != 0)
        u = v2_normalize_or(direction, v2(0, 0));
    if (set->own_faces)
        set->own_faces[i] = 0; /* one direction for the whole shape from now on, kept when re-placed */
    int changed = 0;
    for (int m = part_first(set, i); m < part_end(set, i); m++) {
        if (v2_eq(c2d_static_set_one_way(set, m), u))
            continue;
        if ((st = set_member_vec(set, &set->one_way, m, u)) != C2D_OK)
            return st;
        changed = 1;
    }
    for (int m = part_first(set, i); m < part_end(set, i) && changed; m++)
        refresh_around(set, m);
    return C2D_OK;
}

c2d_status c2d_static_set_get_one_way(const c2d_static_set *set, int i, c2d_vec2 *out)
{
    if (!set || !out)
        return C2D_ERR_NULL;
    if (i < 0 || i >= set->n_public)
        return C2D_ERR_RANGE;
    *out = c2d_static_set_one_way(set, part_first(set, i));
    return C2D_OK;
}

c2d_status c2d_static_set_set_motion(c2d_static_set *set, int i, const c2d_motion *motion)
{
    if (!set)
        return C2D_ERR_NULL;
    if (i < 0 || i >= set->n_public)
        return C2D_ERR_RANGE;
    c2d_motion m;
    memset(&m, 0, sizeof m);
    if (motion)
        m = *motion;
    c2d_rigid checked;
    c2d_status st = c2d_rigid_of_motion(public_shape(set, i), &m, &checked);
    if (st != C2D_OK)
        return st;
    if (!set->spin && (m.angular_velocity != 0 || m.pivot.x != 0 || m.pivot.y != 0)) {
        set->spin = (double *)calloc((size_t)set->n, sizeof(double));
        set->spin_pivot = (c2d_vec2 *)calloc((size_t)set->n, sizeof(c2d_vec2));
        set->spin_reach = (double *)calloc((size_t)set->n, sizeof(double));
        set->pivot_local = (c2d_vec2 *)calloc((size_t)set->n_public, sizeof(c2d_vec2));
        if (!set->spin || !set->spin_pivot || !set->spin_reach || !set->pivot_local) {
            free(set->spin);
            free(set->spin_pivot);
            free(set->spin_reach);
            free(set->pivot_local);
            set->spin = NULL;
            set->spin_pivot = NULL;
            set->spin_reach = NULL;
            set->pivot_local = NULL;
            return C2D_ERR_NO_MEMORY;
        }
    }
    /* The velocity first: it is the one step that can fail (allocating), and it changes nothing then. */
    if ((st = c2d_static_set_set_velocity(set, i, m.velocity)) != C2D_OK)
        return st;
    if (!set->spin)
        return C2D_OK;
    set->pivot_local[i] = m.pivot;
    for (int k = part_first(set, i); k < part_end(set, i); k++) {
        set->spin[k] = m.angular_velocity;
        if (m.angular_velocity != 0)
            make_loose(set, k);
    }
    place_pivot(set, i);
    for (int k = part_first(set, i); k < part_end(set, i); k++)
        refresh_around(set, k);
    return C2D_OK;
}

c2d_status c2d_static_set_get_motion(const c2d_static_set *set, int i, c2d_motion *out)
{
    if (!set || !out)
        return C2D_ERR_NULL;
    if (i < 0 || i >= set->n_public)
        return C2D_ERR_RANGE;
    int m = part_first(set, i);
    memset(out, 0, sizeof *out);
    out->velocity = c2d_static_set_velocity(set, m);
    out->angular_velocity = c2d_static_set_spin(set, m);
    out->pivot = set->pivot_local ? set->pivot_local[i] : v2(0, 0);
    return C2D_OK;
}

c2d_status c2d_static_set_advance(c2d_static_set *set, double dt)
{
    if (!set)
        return C2D_ERR_NULL;
    c2d_status st = c2d_check_number(dt);
    if (st != C2D_OK)
        return st;
    if (dt < 0)
        return C2D_ERR_RANGE;
    /* Every new pose first, so that a shape that would leave the coordinate range changes nothing. */
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < set->n_public; i++) {
            int m = part_first(set, i);
            c2d_vec2 v = c2d_static_set_velocity(set, m);
            double w = c2d_static_set_spin(set, m);
            if (v.x == 0 && v.y == 0 && w == 0)
                continue;
            const c2d_shape *s = public_shape(set, i);
            c2d_vec2 c = w != 0 ? c2d_shape_frame_point(s, set->pivot_local[i]) : s->pos;
            double sn = 0, cs = 1;
            if (w != 0)
                c2d_sincos(w * dt, &sn, &cs);
            c2d_vec2 r = v2_sub(s->pos, c);
            c2d_vec2 p = v2(c.x + v.x * dt + (cs * r.x - sn * r.y), c.y + v.y * dt + (sn * r.x + cs * r.y));
            double angle = s->angle + w * dt;
            if (pass == 0) {
                if ((st = c2d_check_vec(p)) != C2D_OK || (st = c2d_check_number(angle)) != C2D_OK)
                    return st;
                /* Its farthest point where it will stand (its core read in place: a shape's data
                 * follows its handle, so the handle is never copied). */
                c2d_xf x;
                x.p = p;
                c2d_sincos(angle, &x.s, &x.c);
                c2d_core_buf buf;
                c2d_core k = c2d_local_core(s, &buf);
                for (int j = 0; j < k.count; j++) {
                    c2d_vec2 q = c2d_xf_apply(x, k.v[j]);
                    if (fabs(q.x) + k.radius > C2D_MAX_COORDINATE || fabs(q.y) + k.radius > C2D_MAX_COORDINATE)
                        return C2D_ERR_RANGE;
                }
            } else if ((st = c2d_static_set_set_transform(set, i, p, angle)) != C2D_OK) {
                return st;
            }
        }
    return C2D_OK;
}

/* ---- what a world that holds a set as its level reads of it (records.h) ---- */

typedef struct reach_list {
    const c2d_static_set *set;
    int *items;
    int n, capacity;
    int no_memory;
} reach_list;

static int add_reached(void *ctx, int m)
{
    reach_list *l = (reach_list *)ctx;
    int i = l->set->owner ? l->set->owner[m] : m;
    if (l->n == l->capacity) {
        int cap = l->capacity ? 2 * l->capacity : 16;
        int *grown = (int *)realloc(l->items, (size_t)cap * sizeof *grown);
        if (!grown) {
            l->no_memory = 1;
            return 1;
        }
        l->items = grown;
        l->capacity = cap;
    }
    l->items[l->n++] = i;
    return 0;
}

static int compare_int(const void *x, const void *y)
{
    int a = *(const int *)x, b = *(const int *)y;
    return (a > b) - (a < b);
}

c2d_status c2d_static_set_reach(const c2d_static_set *set, c2d_aabb box, double horizon, int **out, int *count)
{
    reach_list l = {set, NULL, 0, 0, 0};
    c2d_static_set_query(set, box, horizon, add_reached, &l);
    if (l.no_memory) {
        free(l.items);
        return C2D_ERR_NO_MEMORY;
    }
    /* A chain's or concave polygon's parts name their shape once; the grid's order is not the index's. */
    if (l.n > 1)
        qsort(l.items, (size_t)l.n, sizeof *l.items, compare_int);
    int n = 0;
    for (int k = 0; k < l.n; k++)
        if (n == 0 || l.items[n - 1] != l.items[k])
            l.items[n++] = l.items[k];
    *out = l.items;
    *count = n;
    return C2D_OK;
}

int c2d_static_set_in_motion(const c2d_static_set *set)
{
    return set->velocity != NULL || set->spin != NULL;
}

c2d_static_set_options c2d_static_set_seam_options(const c2d_static_set *set)
{
    c2d_static_set_options o;
    memset(&o, 0, sizeof o);
    o.seam_tolerance = set->seam_tolerance;
    o.no_auto_seams = !set->auto_seams;
    return o;
}

c2d_status c2d_static_set_copy_marks(c2d_static_set *dst, const c2d_static_set *src, const int *shapes, int m)
{
    c2d_status st = C2D_OK;
    for (int p = 0; p < src->pair_count && st == C2D_OK; p++) {
        int a = src->pairs[2 * p], b = src->pairs[2 * p + 1];
        int i = src->owner ? src->owner[a] : a, j = src->owner ? src->owner[b] : b;
        const int *ki = (const int *)bsearch(&i, shapes, (size_t)m, sizeof *shapes, compare_int);
        const int *kj = ki ? (const int *)bsearch(&j, shapes, (size_t)m, sizeof *shapes, compare_int) : NULL;
        /* mark_neighbours marks every pair of the two shapes' parts, as the source's did: once is enough. */
        int first = p == 0 || i != (src->owner ? src->owner[src->pairs[2 * p - 2]] : src->pairs[2 * p - 2]) ||
                    j != (src->owner ? src->owner[src->pairs[2 * p - 1]] : src->pairs[2 * p - 1]);
        if (ki && kj && first)
            st = c2d_static_set_mark_neighbours(dst, (int)(ki - shapes), (int)(kj - shapes), src->pair_tolerance[p]);
    }
    return st;
}
