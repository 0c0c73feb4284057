/* compoundcontact.c - the contact of a compound with a convex shape (the push-out from its set, the
 * points of the part that agrees best) or with another compound (the shortest of the parts' candidate
 * moves and their corners that clears the union, tried with compoundmove.c), in a fixed order of the
 * pair so that both ways round agree. Layer 5, compound shapes. */
#include "compound.h"

#include <stdlib.h>
#include <string.h>

/* The contact of compound a with convex b (normal from a to b): the push-out of b from a's set gives
 * the depth and the normal; the points are those of the part whose own contact agrees best with it.
 * The parts' contacts are taken in the world, as c2d_compound_overlap takes them, so that a contact
 * is found exactly when the shapes overlap. */
static c2d_status compound_convex_contact(const c2d_shape *a, const c2d_shape *b, c2d_contact *out)
{
    const c2d_compound *c = c2d_compound_of(a);
    memset(out, 0, sizeof *out);
    c2d_vec2 d;
    c2d_status st = c2d_compound_union_push(a, b, &d);
    if (st != C2D_OK)
        return st;
    c2d_xf x = c2d_shape_xf(a);
    double depth = v2_len_safe(d);
    c2d_vec2 n = depth > 0 ? c2d_rotate(x, v2_scale(d, 1 / depth)) : v2(0, 0);
    int best = -1;
    double agree = -INFINITY;
    c2d_contact pc, chosen;
    memset(&chosen, 0, sizeof chosen);
    for (int k = 0; k < c->n; k++) {
        if ((st = c2d_convex_collide(c->part[k], b, &pc)) != C2D_OK)
            break;
        if (pc.count == 0)
            continue;
        /* With a push: the part contact closest to its direction; touching only: the shallowest. */
        double score = depth > 0 ? v2_dot(pc.normal, n) : -pc.depth;
        if (best < 0 || score > agree) {
            best = k;
            agree = score;
            chosen = pc;
        }
    }
    if (st != C2D_OK)
        return st;
    if (best < 0)
        return C2D_OK;
    if (depth > 0) {
        chosen.normal = n;
        chosen.depth = depth;
        for (int i = 0; i < chosen.count; i++)
            chosen.point_depths[i] = fmin(chosen.point_depths[i], depth);
    } else {
        /* In the union no deeper than touching (the push-out found no way to go): touching. */
        chosen.depth = 0;
        for (int i = 0; i < chosen.count; i++)
            chosen.point_depths[i] = 0;
    }
    *out = chosen;
    return C2D_OK;
}

static void flip_contact(c2d_contact *c)
{
    if (c->count > 0)
        c->normal = v2_neg(c->normal);
}

/* Whether compound b comes before compound a in a fixed order of their geometry (kind, size, placement,
 * outline), never of the arguments: a pair of compounds is computed in that order whichever way it is
 * asked, so that (a, b) and (b, a) agree exactly. */
int c2d_compound_second_first(const c2d_shape *a, const c2d_shape *b)
{
    if (a->type != b->type)
        return b->type < a->type;
    if (a->count != b->count)
        return b->count < a->count;
    const double ka[3] = {a->pos.x, a->pos.y, a->angle}, kb[3] = {b->pos.x, b->pos.y, b->angle};
    for (int i = 0; i < 3; i++)
        if (ka[i] != kb[i])
            return kb[i] < ka[i];
    for (int i = 0; i < a->count; i++) {
        if (a->data[i].x != b->data[i].x)
            return b->data[i].x < a->data[i].x;
        if (a->data[i].y != b->data[i].y)
            return b->data[i].y < a->data[i].y;
    }
    /* Equal as numbers: by their bits (-0 and +0 differ there, and in what the queries return). */
    int c = memcmp(ka, kb, sizeof ka);
    if (c == 0)
        c = memcmp(a->data, b->data, (size_t)a->count * sizeof *a->data);
    if (c != 0)
        return c > 0;
    /* The same points: a chain open or closed, one-sided or not, an outline with other holes. */
    const c2d_compound *ca = c2d_compound_of(a), *cb = c2d_compound_of(b);
    if (ca->n != cb->n)
        return cb->n < ca->n;
    if (ca->one_sided != cb->one_sided)
        return cb->one_sided < ca->one_sided;
    for (int k = 0; k < ca->n; k++) {
        const c2d_shape *pa = ca->lpart[k], *pb = cb->lpart[k];
        if (pa->count != pb->count)
            return pb->count < pa->count;
        c = memcmp(&pa->pos, &pb->pos, sizeof pa->pos);
        if (c == 0)
            c = memcmp(pa->data, pb->data, (size_t)pa->count * sizeof *pa->data);
        if (c != 0)
            return c > 0;
    }
    return 0;
}

/* A move of b tried as the answer: the translation, its length, and the candidate whose points it
 * keeps. */
typedef struct pair_move {
    c2d_vec2 t;
    double len;
    int from;
} pair_move;

static int compare_move(const void *x, const void *y)
{
    const pair_move *p = (const pair_move *)x, *q = (const pair_move *)y;
    if (p->len != q->len)
        return p->len < q->len ? -1 : 1;
    if (p->from != q->from)
        return p->from < q->from ? -1 : 1;
    return p->t.x != q->t.x ? (p->t.x < q->t.x ? -1 : 1) : (p->t.y < q->t.y ? -1 : p->t.y > q->t.y);
}

/* Two compounds, in their fixed order. Every part of b pushed out of the whole of a, and every part of
 * a out of the whole of b (as a move of b the other way), gives a candidate: a move that clears that
 * one part. When the longest clears all of b, it is the minimum translation. Where it does not (a part
 * caught in a pocket of the other shape, another pressed on its rim), the way out is often a corner:
 * the move meeting two candidates' faces at once (n_i . t = d_i, n_j . t = d_j). So the candidates and
 * the corners of every two of them are tried, shortest first, and the first that leaves no part of b
 * deeper in a than rounding is the answer, taken along its direction only as far as clears every part
 * (clear_along). Shorter ones than the longest candidate are tried too (down
 * to the deepest pair of parts' own depth, a lower bound): a part's push-out out of a whole compound
 * can be longer than its shortest way out, where that way touches several parts at a corner inside the
 * outline (see c2d_static_set_push_out's seams). Failing all, each candidate's direction is tried whole (clear_along: the move along it that clears every
 * part), and the least of those is taken. With a chain, whose segments have no inside, parts that only
 * touch may still cross (caught_after), sweeps of parts may stop where a segment slides along its own
 * line into a joint (verified_along), and a move may leave a chain inside the other's loop, apart
 * (back_to_touch): every place taken is checked, as the moves tried are. */
static c2d_status compound_pair_contact(const c2d_shape *a, const c2d_shape *b, c2d_contact *out)
{
    const c2d_compound *ca = c2d_compound_of(a), *cb = c2d_compound_of(b);
    int n = cb->n + ca->n, best = -1;
    c2d_contact *cand = (c2d_contact *)malloc((size_t)n * sizeof *cand);
    pair_move *moves = (pair_move *)malloc(((size_t)n * (size_t)(n + 1) / 2) * sizeof *moves);
    c2d_status st = C2D_OK;
    memset(out, 0, sizeof *out);
    c2d_shape **moved = (c2d_shape **)calloc((size_t)cb->n, sizeof *moved);
    int *near = (int *)malloc(((size_t)ca->n + (size_t)cb->n) * sizeof *near);
    if (!cand || !moves || !moved || !near) {
        free(cand);
        free(moves);
        free(moved);
        free(near);
        return C2D_ERR_NO_MEMORY;
    }
    for (int k = 0; k < n && st == C2D_OK; k++) {
        if (k < cb->n) {
            st = compound_convex_contact(a, cb->part[k], &cand[k]);
        } else {
            st = compound_convex_contact(b, ca->part[k - cb->n], &cand[k]);
            flip_contact(&cand[k]); /* pushing a's part out of b is moving b the other way */
        }
        if (st == C2D_OK && cand[k].count > 0 && (best < 0 || cand[k].depth > cand[best].depth))
            best = k;
    }
    if (st != C2D_OK || best < 0 || !(cand[best].depth > 0)) {
        if (st == C2D_OK && best >= 0)
            *out = cand[best]; /* touching only */
        free(cand);
        free(moves);
        free(moved);
        free(near);
        return st;
    }
    /* A lower bound on the answer: any move that clears the union clears each pair of parts, so it is
     * at least as long as the deepest pair's own minimum translation. */
    double bound = 0;
    for (int j = 0; j < cb->n && st == C2D_OK; j++) {
        st = c2d_shape_clone(cb->part[j], &moved[j]);
        for (int i = 0; i < ca->n && st == C2D_OK; i++) {
            c2d_contact c;
            st = c2d_convex_collide(ca->part[i], cb->part[j], &c);
            if (st == C2D_OK && c.count > 0 && c.depth > bound)
                bound = c.depth;
        }
    }
    double scale = fabs(a->pos.x) + fabs(a->pos.y) + fabs(b->pos.x) + fabs(b->pos.y) + a->reach + b->reach +
                   cand[best].depth;
    double tol = 1e-10 * scale;
    int thin = a->type == C2D_SHAPE_CHAIN || b->type == C2D_SHAPE_CHAIN;
    int m = 0;
    for (int i = 0; i < n; i++) {
        if (cand[i].count == 0 || !(cand[i].depth > 0))
            continue;
        c2d_vec2 ni = cand[i].normal;
        double di = cand[i].depth;
        if (di >= bound * (1 - 1e-12)) {
            moves[m].t = v2_scale(ni, di);
            moves[m].len = di;
            moves[m].from = i;
            m++;
        }
        for (int j = i + 1; j < n; j++) {
            if (cand[j].count == 0 || !(cand[j].depth > 0))
                continue;
            c2d_vec2 nj = cand[j].normal;
            double dj = cand[j].depth, det = ni.x * nj.y - ni.y * nj.x;
            if (!(fabs(det) > 1e-9))
                continue; /* (nearly) parallel faces meet at no corner */
            c2d_vec2 t = v2((di * nj.y - dj * ni.y) / det, (ni.x * dj - nj.x * di) / det);
            double len = v2_len_safe(t);
            if (!(len >= bound * (1 - 1e-12)) || !(len <= 4 * scale))
                continue; /* shorter than a pair of parts needs, or far off (faces nearly parallel) */
            moves[m].t = t;
            moves[m].len = len;
            moves[m].from = di >= dj ? i : j;
            m++;
        }
    }
    qsort(moves, (size_t)m, sizeof *moves, compare_move);
    int found = -1;
    for (int k = 0; k < m && st == C2D_OK && found < 0; k++) {
        int caught = 0;
        st = c2d_compound_caught_after(a, b, moved, near, moves[k].t, tol, &caught);
        if (st == C2D_OK && !caught)
            found = k;
    }
    if (st == C2D_OK && found >= 0) {
        /* The move found clears every part, but when the true minimum is none of the moves tried it
         * may go farther than touching: along its direction, as far as clears every part, is then
         * shorter. But never shorter than the deepest pair of parts needs (bound): clear_along sweeps
         * each part back from far along u, at the touching tolerance of that long lead-in, coarser
         * than the parts' own; parts overlapping by less than it came back 'clear' where they stand,
         * and a pair 1e10 across, its parts 0.027 deep, got a contact of depth 0 (and a sweep starting
         * there OVERLAP with depth 0). */
        c2d_vec2 u = v2_scale(moves[found].t, 1 / moves[found].len);
        double len = moves[found].len, along = len;
        st = c2d_compound_clear_along(a, b, moved, u, &along);
        if (st == C2D_OK && thin && along < len * (1 - 1e-9)) {
            /* (A chain's segment may stop short there: the first place on from it where nothing is
             * caught, see verified_along; the move found itself, failing that.) */
            double v = -1;
            st = c2d_compound_verified_along(a, b, moved, near, u, along, tol, &v);
            along = v >= 0 && v < len ? v : len;
        }
        if (st == C2D_OK && thin && !(along < len * (1 - 1e-9)))
            st = c2d_compound_back_to_touch(a, b, moved, near, u, len, tol, &along);
        *out = cand[moves[found].from];
        out->depth = along < len * (1 - 1e-9) ? (along > bound ? along : bound) : len;
        out->normal = u;
    } else if (st == C2D_OK) {
        double least = INFINITY, unsure = INFINITY;
        int pick = best, unsure_pick = best;
        for (int k = 0; k < n && st == C2D_OK; k++) {
            if (cand[k].count == 0 || !(cand[k].depth > 0))
                continue;
            double sk = 0, vk = 0;
            st = c2d_compound_clear_along(a, b, moved, cand[k].normal, &sk);
            if (st == C2D_OK && thin) {
                /* The least of the directions where a chain is sure to come clear; failing all, as
                 * clear_along says. */
                if (sk < unsure) {
                    unsure = sk;
                    unsure_pick = k;
                }
                st = c2d_compound_verified_along(a, b, moved, near, cand[k].normal, fmax(sk, cand[k].depth), tol,
                                                 &vk);
                sk = vk < 0 ? INFINITY : vk;
            }
            if (st == C2D_OK && sk < least) {
                least = sk;
                pick = k;
            }
        }
        if (st == C2D_OK && least == INFINITY) {
            least = unsure;
            pick = unsure_pick;
        }
        if (st == C2D_OK) {
            *out = cand[pick];
            out->depth = least > cand[pick].depth ? least : cand[pick].depth;
        }
    }
    if (st == C2D_OK)
        for (int i = 0; i < out->count; i++)
            out->point_depths[i] = out->point_depths[i] < out->depth ? out->point_depths[i] : out->depth;
    for (int j = 0; j < cb->n; j++)
        c2d_shape_destroy(moved[j]);
    free(cand);
    free(moves);
    free(moved);
    free(near);
    return st;
}

c2d_status c2d_compound_collide(const c2d_shape *a, const c2d_shape *b, c2d_contact *out)
{
    if (!c2d_is_compound(a)) {
        c2d_status st = c2d_compound_collide(b, a, out);
        if (st == C2D_OK)
            flip_contact(out);
        return st;
    }
    if (!c2d_is_compound(b))
        return compound_convex_contact(a, b, out);
    if (c2d_compound_second_first(a, b)) {
        c2d_status st = compound_pair_contact(b, a, out);
        if (st == C2D_OK)
            flip_contact(out);
        return st;
    }
    return compound_pair_contact(a, b, out);
}
