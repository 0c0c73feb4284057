/* world.c - the world: entries (shape, user value, filter bits) over the dynamic AABB tree, and the
 * queries and pair finding built on it.
 *
 * Every query runs in the same three steps: walk the tree collecting candidates (no user code runs
 * while the tree is being walked, so a callback that adds or removes entries can never corrupt a walk
 * in progress), sort them into the promised order, then run filters and the exact narrow phase. Each
 * query's scratch memory is its own, so concurrent queries on an unchanging world are safe.
 *
 * The order promised everywhere is by user value, then by id; ids of live entries compare as their slot
 * indices. Pairs are sorted as 64-bit keys (rank of a, rank of b) by a radix sort, because a frame of
 * 40,000 moving shapes can have a hundred thousand pairs and a comparison sort would cost more than
 * finding them.
 */
#include "tree.h"
#include "world.h"

#include <float.h>
#include <limits.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* Ids are ((slot + 1) << GEN_BITS) | generation: ordered like slots, never 0, below 2^53. */
#define GEN_BITS 20
#define GEN_MASK ((1u << GEN_BITS) - 1u)
#define MAX_ENTRIES (1 << 28)
/* How many frames of the last motion a re-placed box looks ahead (Box2D's b2_aabbMultiplier). */
#define STRETCH 8.0

typedef struct entry {
    c2d_shape *shape; /* NULL while the slot is free */
    uintptr_t user;
    c2d_aabb tight;   /* the shape's box as of the last add or update, grown by rounding (tight_box) */
    int node;         /* tree leaf; next free slot while free */
    unsigned gen;
    unsigned category, mask;
    int pairs;        /* head of this entry's list in the pair cache, or -1 */
    int moved;        /* MOVE_*: whether the pair cache must look at this entry again */
} entry;

/* The pair cache: every pair of entries whose fattened boxes overlap and whose bits let them pair, as
 * records each linked into two doubly-linked lists, one per entry (Chipmunk's cpBBTree keeps its pairs
 * the same way). A pair of entries whose fat boxes and bits did not change cannot have started or
 * stopped overlapping, so a frame only has to look again at the entries that were re-placed in the
 * tree or given new bits: those are queued in the move buffer by add, update and set_bits, and
 * c2d_world_pairs settles the queue before reading the cache. */
typedef struct pair_rec {
    int e[2];         /* the two entry slots; e[0] == -1 while free */
    int next[2];      /* next record in e[k]'s list (next[0] links the free list) */
    int prev[2];
} pair_rec;

enum { MOVE_NONE, MOVE_QUEUED, MOVE_DONE };

struct c2d_world {
    entry *entries;
    int slots;      /* slots ever used: entries[0 .. slots) */
    int capacity;
    int count;      /* live entries */
    int free_slot;  /* head of the free slot list, or -1 */
    c2d_tree tree;
    double margin_abs, margin_rel;
    c2d_world_pair_fn pair_fn;
    void *pair_ctx;
    pair_rec *prs;  /* the pair cache's records */
    int pr_used;    /* records ever used: prs[0 .. pr_used) */
    int pr_cap;
    int pr_free;    /* head of the free record list, or -1 */
    int *moves;     /* the move buffer: slots to look at again (capacity: the entries' capacity) */
    int nmoves;
    int adds_since_build; /* leaves added since the tree was last rebuilt (see maybe_rebuild) */
    /* Per slot, the one-way direction of moves and ball steps (unit, or zero): NULL until an entry
     * gets one, and beside the entries rather than in them, which the queries read by the thousand. */
    c2d_vec2 *one_way;
};

/* ---- ids and entries -------------------------------------------------------------------------- */

static c2d_world_id make_id(int slot, unsigned gen)
{
    return ((c2d_world_id)(slot + 1) << GEN_BITS) | gen;
}

/* Writes pair m of a pairs answer (and its contact on request). The contact of two polygons of more
 * than C2D_PAIR_STACK vertices each needs memory, so this can fail with C2D_ERR_NO_MEMORY. */
static c2d_status write_pair(c2d_world_pair *out, c2d_contact *contacts, size_t m, int ia, const entry *a, int ib,
                             const entry *b)
{
    out[m].a = make_id(ia, a->gen);
    out[m].b = make_id(ib, b->gen);
    out[m].user_a = a->user;
    out[m].user_b = b->user;
    return contacts ? c2d_collide(a->shape, b->shape, &contacts[m]) : C2D_OK;
}

/* The live entry an id names, or NULL. */
static entry *lookup(const c2d_world *w, c2d_world_id id)
{
    c2d_world_id s = id >> GEN_BITS;
    if (s == 0 || s > (c2d_world_id)w->slots)
        return NULL;
    entry *e = &w->entries[s - 1];
    return e->shape && e->gen == (unsigned)(id & GEN_MASK) ? e : NULL;
}

static c2d_world_id entry_id(const c2d_world *w, const entry *e)
{
    return make_id((int)(e - w->entries), e->gen);
}

/* Plain comparisons: without -ffast-math, fmin and fmax are library calls (they handle NaN, which
 * never reaches these: every number was checked on the way in). */
static inline double dmin(double a, double b) { return a < b ? a : b; }
static inline double dmax(double a, double b) { return a > b ? a : b; }
static inline double max3(double a, double b, double c) { return dmax(dmax(a, b), c); }

/* The box the world tests an entry by before asking the narrow phase: the shape's tight box grown by
 * the rounding of the narrow phase, whose answer for shapes touching within rounding (a circle whose
 * distance from a point 1e-17 beyond its radius rounds to the radius) may be "touching" while the
 * exact boxes are apart. Every pair and query the narrow phase accepts passes this box. */
static c2d_aabb tight_box(const c2d_shape *s)
{
    c2d_aabb t = c2d_shape_aabb(s);
    double ext = dmax(t.max.x - t.min.x, t.max.y - t.min.y);
    double mag = max3(fabs(t.min.x), fabs(t.max.x), dmax(fabs(t.min.y), fabs(t.max.y)));
    double m = 1e-12 * (mag + ext);
    t.min = v2(t.min.x - m, t.min.y - m);
    t.max = v2(t.max.x + m, t.max.y + m);
    return t;
}

/* The box the tree keeps for a shape with tight box t that has just moved by `moved`. The margin lets
 * small moves skip the tree; the stretch along the motion (Box2D's predictive fattening, capped so a
 * teleport does not leave a huge box behind) lets steady motion skip it too. The tiny relative slack
 * keeps the floating-point slab test of ray queries conservative even with a zero margin. */
static c2d_aabb fat_box(const c2d_world *w, c2d_aabb t, c2d_vec2 moved)
{
    double ext = dmax(t.max.x - t.min.x, t.max.y - t.min.y);
    double mag = max3(fabs(t.min.x), fabs(t.max.x), dmax(fabs(t.min.y), fabs(t.max.y)));
    double m = w->margin_abs + w->margin_rel * ext + 1e-9 * (mag + ext);
    double cap = 4.0 * ext + m;
    double sx = dmax(-cap, dmin(cap, STRETCH * moved.x)), sy = dmax(-cap, dmin(cap, STRETCH * moved.y));
    c2d_aabb f;
    f.min.x = t.min.x - m + (sx < 0 ? sx : 0);
    f.max.x = t.max.x + m + (sx > 0 ? sx : 0);
    f.min.y = t.min.y - m + (sy < 0 ? sy : 0);
    f.max.y = t.max.y + m + (sy > 0 ? sy : 0);
    return f;
}

/* Whether a fattened box is so much larger than a fresh one would be that it should be shrunk (the
 * shape stopped after moving fast, or was replaced by a smaller one): loose boxes cost every query. */
static int box_too_loose(const c2d_world *w, const c2d_aabb *fat, const c2d_aabb *t)
{
    double tw = t->max.x - t->min.x, th = t->max.y - t->min.y;
    double ext = dmax(tw, th);
    /* The usual answer, cheaply: every side's slack is at most the slack across its axis, and the
     * allowance below is at least 4 * (margin_abs + ext). This runs for every entry on every update. */
    double quick = 4.0 * (w->margin_abs + ext);
    if ((fat->max.x - fat->min.x) - tw <= quick && (fat->max.y - fat->min.y) - th <= quick)
        return 0;
    double m = w->margin_abs + w->margin_rel * ext;
    double allow = 4.0 * m + 4.0 * ext + 1e-9 * ext;
    double mag = max3(fabs(t->min.x), fabs(t->max.x), dmax(fabs(t->min.y), fabs(t->max.y)));
    allow += 1e-9 * (mag + ext) * 2;
    return fat->min.x < t->min.x - allow || fat->min.y < t->min.y - allow || fat->max.x > t->max.x + allow ||
           fat->max.y > t->max.y + allow;
}

/* Rebuilds the tree (see c2d_tree_rebuild) and tells every entry its leaf's new node index. */
static int rebuild_tree(c2d_world *w)
{
    if (!c2d_tree_rebuild(&w->tree))
        return 0;
    const c2d_tree_node *n = w->tree.nodes;
    for (int i = 0; i < w->tree.capacity; i++)
        if (n[i].height == 0)
            w->entries[n[i].item].node = i;
    return 1;
}

/* A tree grown by adding many leaves one at a time in no particular order is a poor one, and moving
 * its leaves does not repair it: re-placing a leaf keeps the tree about as good as it was. Measured on
 * 40,000 drifting circles: a query visits 100 nodes in the tree left by 40,000 adds against 42 after a
 * rebuild, the sum of internal perimeters over the root's is 740 against 480 (and stays there, 490
 * after 300 frames of motion), and a frame of updates and pairs takes about 40% less time. So the
 * first update or pair pass after a burst of adds (at least 256, and at least half the live entries)
 * rebuilds the tree, as c2d_world_optimize does. Leaves keep their fattened boxes (not their node
 * indices: rebuild_tree passes the new ones on), so the pair cache and every result stay the same.
 * The thresholds grow with the world, so a world filled a little at a time rebuilds O(log n) times. */
static void maybe_rebuild(c2d_world *w)
{
    if (w->adds_since_build < 256 || w->adds_since_build < w->count / 2)
        return;
    /* On allocation failure the tree is unchanged and still correct; try again after as many adds. */
    (void)rebuild_tree(w);
    w->adds_since_build = 0;
}

/* Whether two entries' bits let them pair. The pair cache holds only pairs that pass (a change of
 * bits queues the entry again), so the pair pass need not look. */
static inline int bits_pair(const entry *a, const entry *b)
{
    return (a->category & b->mask) && (b->category & a->mask);
}

/* ---- the pair cache ---------------------------------------------------------------------------- */

static int side_of(const pair_rec *r, int slot)
{
    return r->e[0] == slot ? 0 : 1;
}

static void unlink_pair(c2d_world *w, int p)
{
    pair_rec *r = &w->prs[p];
    for (int k = 0; k < 2; k++) {
        int x = r->e[k], n = r->next[k], pv = r->prev[k];
        if (pv >= 0)
            w->prs[pv].next[side_of(&w->prs[pv], x)] = n;
        else
            w->entries[x].pairs = n;
        if (n >= 0)
            w->prs[n].prev[side_of(&w->prs[n], x)] = pv;
    }
    r->e[0] = r->e[1] = -1;
    r->next[0] = w->pr_free;
    w->pr_free = p;
}

static void clear_pairs(c2d_world *w, int slot)
{
    while (w->entries[slot].pairs >= 0)
        unlink_pair(w, w->entries[slot].pairs);
}

/* Records the pair (a, b); 0 when memory ran out. */
static int add_pair(c2d_world *w, int a, int b)
{
    int p = w->pr_free;
    if (p >= 0) {
        w->pr_free = w->prs[p].next[0];
    } else {
        if (w->pr_used == w->pr_cap) {
            if (w->pr_cap >= (1 << 29))
                return 0;
            int cap = w->pr_cap ? 2 * w->pr_cap : 256;
            pair_rec *r = (pair_rec *)realloc(w->prs, (size_t)cap * sizeof *r);
            if (!r)
                return 0;
            w->prs = r;
            w->pr_cap = cap;
        }
        p = w->pr_used++;
    }
    pair_rec *r = &w->prs[p];
    r->e[0] = a;
    r->e[1] = b;
    for (int k = 0; k < 2; k++) {
        int x = r->e[k], head = w->entries[x].pairs;
        r->next[k] = head;
        r->prev[k] = -1;
        if (head >= 0)
            w->prs[head].prev[side_of(&w->prs[head], x)] = p;
        w->entries[x].pairs = p;
    }
    return 1;
}

/* Queues a slot whose fat box is new. The buffer never holds a slot twice while it is queued, so the
 * entries' capacity bounds it; a removed slot reused before the flush may appear twice, harmlessly. */
static void queue_move(c2d_world *w, int slot)
{
    if (w->entries[slot].moved == MOVE_QUEUED)
        return;
    if (w->nmoves == w->capacity) {
        /* Only stale duplicates can fill it: drop them. */
        int k = 0;
        for (int i = 0; i < w->nmoves; i++) {
            int x = w->moves[i];
            if (w->entries[x].shape && w->entries[x].moved == MOVE_QUEUED) {
                w->entries[x].moved = MOVE_DONE; /* marks "kept" during this compaction */
                w->moves[k++] = x;
            }
        }
        for (int i = 0; i < k; i++)
            w->entries[w->moves[i]].moved = MOVE_QUEUED;
        w->nmoves = k;
    }
    w->entries[slot].moved = MOVE_QUEUED;
    w->moves[w->nmoves++] = slot;
}

/* Brings the pair cache up to date with the move buffer. When most entries moved, one walk of the
 * tree against itself is cheaper than a query per entry. Returns 0 when memory ran out (the buffer is
 * then kept, so a later call retries). */
static int flush_moves(c2d_world *w)
{
    maybe_rebuild(w);
    if (w->nmoves == 0)
        return 1;
    c2d_ivec found;
    c2d_ivec_init(&found);
    int ok = 1;
    if (w->nmoves > w->count / 2) {
        c2d_tree_self_pairs(&w->tree, &found);
        if (found.failed) {
            c2d_ivec_free(&found);
            return 0;
        }
        for (int i = 0; i < w->slots; i++)
            w->entries[i].pairs = -1;
        w->pr_used = 0;
        w->pr_free = -1;
        for (int k = 0; ok && k + 1 < found.count; k += 2) {
            int a = w->tree.nodes[found.data[k]].item, b = w->tree.nodes[found.data[k + 1]].item;
            if (bits_pair(&w->entries[a], &w->entries[b]))
                ok = add_pair(w, a, b);
        }
        if (!ok) { /* leave an empty cache and everything queued */
            for (int i = 0; i < w->slots; i++)
                w->entries[i].pairs = -1;
            w->pr_used = 0;
            w->pr_free = -1;
            for (int i = 0; i < w->slots; i++)
                if (w->entries[i].shape)
                    queue_move(w, i);
        } else {
            for (int i = 0; i < w->nmoves; i++)
                w->entries[w->moves[i]].moved = MOVE_NONE;
            w->nmoves = 0;
        }
        c2d_ivec_free(&found);
        return ok;
    }
    for (int i = 0; i < w->nmoves; i++) {
        int x = w->moves[i];
        if (w->entries[x].shape && w->entries[x].moved == MOVE_QUEUED)
            clear_pairs(w, x);
    }
    int done = 0;
    for (; ok && done < w->nmoves; done++) {
        int x = w->moves[done];
        entry *e = &w->entries[x];
        if (!e->shape || e->moved != MOVE_QUEUED)
            continue;
        found.count = 0;
        c2d_tree_query(&w->tree, w->tree.nodes[e->node].box, &found);
        ok = !found.failed;
        /* A pair of two moved entries is made by whichever of them comes first. The leaf carries
         * the entry's bits, so pairs the bits forbid are dropped without touching the other entry. */
        for (int k = 0; ok && k < found.count; k++) {
            const c2d_tree_node *nd = &w->tree.nodes[found.data[k]];
            int y = nd->item;
            if (y != x && (e->category & nd->mask) && (nd->category & e->mask) && w->entries[y].moved != MOVE_DONE)
                ok = add_pair(w, x, y);
        }
        if (!ok) { /* undo this entry's partial pairs; it and the rest stay queued */
            clear_pairs(w, x);
            break;
        }
        e->moved = MOVE_DONE;
    }
    if (ok) {
        for (int i = 0; i < w->nmoves; i++)
            w->entries[w->moves[i]].moved = MOVE_NONE;
        w->nmoves = 0;
    } else {
        /* The processed ones keep their pairs; the rest (from `done` on) stay queued. The processed
         * entries must no longer count as done, or a later flush would skip pairs with them. */
        int k = 0;
        for (int i = 0; i < w->nmoves; i++) {
            int y = w->moves[i];
            if (i < done) {
                w->entries[y].moved = MOVE_NONE;
            } else if (w->entries[y].shape && w->entries[y].moved == MOVE_QUEUED) {
                w->moves[k++] = y;
            }
        }
        w->nmoves = k;
    }
    c2d_ivec_free(&found);
    return ok;
}

/* ---- lifecycle -------------------------------------------------------------------------------- */

c2d_status c2d_world_new(c2d_world **out)
{
    if (!out)
        return C2D_ERR_NULL;
    c2d_world *w = (c2d_world *)calloc(1, sizeof *w);
    if (!w)
        return C2D_ERR_NO_MEMORY;
    w->free_slot = -1;
    w->pr_free = -1;
    w->margin_rel = 0.1;
    c2d_tree_init(&w->tree);
    *out = w;
    return C2D_OK;
}

void c2d_world_destroy(c2d_world *world)
{
    if (!world)
        return;
    c2d_tree_free(&world->tree);
    free(world->entries);
    free(world->prs);
    free(world->moves);
    free(world->one_way);
    free(world);
}

c2d_status c2d_world_set_margin(c2d_world *world, double absolute, double relative)
{
    c2d_status st;
    if (!world)
        return C2D_ERR_NULL;
    if ((st = c2d_check_number(absolute)) || (st = c2d_check_number(relative)))
        return st;
    if (absolute < 0 || relative < 0)
        return C2D_ERR_RANGE;
    world->margin_abs = absolute;
    world->margin_rel = relative;
    return C2D_OK;
}

c2d_status c2d_world_add(c2d_world *world, c2d_shape *shape, uintptr_t user, c2d_world_id *out_id)
{
    if (!world || !shape || !out_id)
        return C2D_ERR_NULL;
    if (world->count >= MAX_ENTRIES)
        return C2D_ERR_RANGE;
    /* Reserve everything first, so a failed allocation leaves the world as it was. */
    if (world->free_slot < 0 && world->slots == world->capacity) {
        int cap = world->capacity ? world->capacity + world->capacity / 2 : 64;
        if (cap > MAX_ENTRIES)
            cap = MAX_ENTRIES;
        int *mv = (int *)realloc(world->moves, (size_t)cap * sizeof *mv);
        if (!mv)
            return C2D_ERR_NO_MEMORY;
        world->moves = mv;
        if (world->one_way) {
            c2d_vec2 *ow = (c2d_vec2 *)realloc(world->one_way, (size_t)cap * sizeof *ow);
            if (!ow)
                return C2D_ERR_NO_MEMORY;
            world->one_way = ow;
        }
        entry *e = (entry *)realloc(world->entries, (size_t)cap * sizeof *e);
        if (!e)
            return C2D_ERR_NO_MEMORY;
        world->entries = e;
        world->capacity = cap;
    }
    if (!c2d_tree_reserve(&world->tree, 1))
        return C2D_ERR_NO_MEMORY;
    int slot;
    if (world->free_slot >= 0) {
        slot = world->free_slot;
        world->free_slot = world->entries[slot].node;
    } else {
        slot = world->slots++;
        world->entries[slot].gen = 0;
    }
    entry *e = &world->entries[slot];
    if (world->one_way)
        world->one_way[slot] = v2(0, 0);
    e->shape = shape;
    e->user = user;
    e->tight = tight_box(shape);
    e->category = 1;
    e->mask = C2D_WORLD_ALL_BITS;
    e->gen = (e->gen & GEN_MASK) == GEN_MASK || e->gen == 0 ? 1 : e->gen + 1;
    e->node = c2d_tree_insert(&world->tree, fat_box(world, e->tight, v2(0, 0)), slot, e->category, e->mask);
    world->tree.nodes[e->node].u.data = shape; /* the leaf keeps it wherever the leaf goes */
    e->pairs = -1;
    e->moved = MOVE_NONE;
    queue_move(world, slot);
    world->count++;
    world->adds_since_build++;
    *out_id = make_id(slot, e->gen);
    return C2D_OK;
}

c2d_status c2d_world_remove(c2d_world *world, c2d_world_id id)
{
    if (!world)
        return C2D_ERR_NULL;
    entry *e = lookup(world, id);
    if (!e)
        return C2D_ERR_RANGE;
    c2d_tree_remove(&world->tree, e->node);
    int slot = (int)(e - world->entries);
    clear_pairs(world, slot);
    /* A queued slot stays in the move buffer; MOVE_NONE makes the cache skip it. */
    e->moved = MOVE_NONE;
    e->shape = NULL;
    e->node = world->free_slot;
    world->free_slot = (int)(e - world->entries);
    world->count--;
    return C2D_OK;
}

c2d_status c2d_world_update(c2d_world *world, c2d_world_id id)
{
    if (!world)
        return C2D_ERR_NULL;
    entry *e = lookup(world, id);
    if (!e)
        return C2D_ERR_RANGE;
    if (world->adds_since_build >= 256)
        maybe_rebuild(world);
    c2d_aabb t = tight_box(e->shape);
    const c2d_aabb *fat = &world->tree.nodes[e->node].box;
    if (!c2d_aabb_contains(fat, &t) || box_too_loose(world, fat, &t)) {
        c2d_vec2 moved = v2(0.5 * ((t.min.x + t.max.x) - (e->tight.min.x + e->tight.max.x)),
                            0.5 * ((t.min.y + t.max.y) - (e->tight.min.y + e->tight.max.y)));
        /* Moving a leaf frees the node it takes again: this cannot fail. */
        e->node = c2d_tree_move(&world->tree, e->node, fat_box(world, t, moved));
        queue_move(world, (int)(e - world->entries));
    }
    e->tight = t;
    return C2D_OK;
}

c2d_status c2d_world_count(const c2d_world *world, int *out)
{
    if (!world || !out)
        return C2D_ERR_NULL;
    *out = world->count;
    return C2D_OK;
}

c2d_status c2d_world_get(const c2d_world *world, c2d_world_id id, c2d_shape **out_shape, uintptr_t *out_user)
{
    if (!world || (!out_shape && !out_user))
        return C2D_ERR_NULL;
    const entry *e = lookup(world, id);
    if (!e)
        return C2D_ERR_RANGE;
    if (out_shape)
        *out_shape = e->shape;
    if (out_user)
        *out_user = e->user;
    return C2D_OK;
}

c2d_status c2d_world_set_user(c2d_world *world, c2d_world_id id, uintptr_t user)
{
    if (!world)
        return C2D_ERR_NULL;
    entry *e = lookup(world, id);
    if (!e)
        return C2D_ERR_RANGE;
    e->user = user;
    return C2D_OK;
}

c2d_status c2d_world_set_bits(c2d_world *world, c2d_world_id id, unsigned int category, unsigned int mask)
{
    if (!world)
        return C2D_ERR_NULL;
    entry *e = lookup(world, id);
    if (!e)
        return C2D_ERR_RANGE;
    if (e->category != category || e->mask != mask)
        queue_move(world, (int)(e - world->entries)); /* its cached pairs were chosen by the old bits */
    e->category = category;
    e->mask = mask;
    world->tree.nodes[e->node].category = category;
    world->tree.nodes[e->node].mask = mask;
    return C2D_OK;
}

c2d_status c2d_world_get_bits(const c2d_world *world, c2d_world_id id, unsigned int *out_category,
                              unsigned int *out_mask)
{
    if (!world || (!out_category && !out_mask))
        return C2D_ERR_NULL;
    const entry *e = lookup(world, id);
    if (!e)
        return C2D_ERR_RANGE;
    if (out_category)
        *out_category = e->category;
    if (out_mask)
        *out_mask = e->mask;
    return C2D_OK;
}

c2d_status c2d_world_set_one_way(c2d_world *world, c2d_world_id id, c2d_vec2 direction)
{
    if (!world)
        return C2D_ERR_NULL;
    entry *e = lookup(world, id);
    if (!e)
        return C2D_ERR_RANGE;
    c2d_status st = c2d_check_vec(direction);
    if (st != C2D_OK)
        return st;
    int slot = (int)(e - world->entries);
    c2d_vec2 u = v2(0, 0);
    if (direction.x != 0 || direction.y != 0)
        u = v2_normalize_or(direction, v2(0, 0));
    if (!world->one_way) {
        if (u.x == 0 && u.y == 0)
            return C2D_OK;
        world->one_way = (c2d_vec2 *)calloc((size_t)world->capacity, sizeof *world->one_way);
        if (!world->one_way)
            return C2D_ERR_NO_MEMORY;
    }
    world->one_way[slot] = u;
    return C2D_OK;
}

c2d_status c2d_world_get_one_way(const c2d_world *world, c2d_world_id id, c2d_vec2 *out)
{
    if (!world || !out)
        return C2D_ERR_NULL;
    const entry *e = lookup(world, id);
    if (!e)
        return C2D_ERR_RANGE;
    *out = world->one_way ? world->one_way[e - world->entries] : v2(0, 0);
    return C2D_OK;
}

c2d_status c2d_world_set_pair_filter(c2d_world *world, c2d_world_pair_fn fn, void *ctx)
{
    if (!world)
        return C2D_ERR_NULL;
    world->pair_fn = fn;
    world->pair_ctx = fn ? ctx : NULL;
    return C2D_OK;
}

c2d_status c2d_world_optimize(c2d_world *world)
{
    if (!world)
        return C2D_ERR_NULL;
    if (!rebuild_tree(world))
        return C2D_ERR_NO_MEMORY;
    world->adds_since_build = 0;
    return C2D_OK;
}

/* ---- candidates: collected, sorted, then filtered --------------------------------------------- */

/* One candidate of a query: enough to put it in order and to find it again after callbacks ran. */
typedef struct candidate {
    uintptr_t user;
    c2d_world_id id;
    double t;        /* ray queries: the hit's parameter */
    c2d_ray_hit ray; /* ray queries: the hit */
} candidate;

typedef struct cand_vec {
    candidate *data;
    int count, capacity;
} cand_vec;

static int cand_push(cand_vec *v, const candidate *c)
{
    if (v->count == v->capacity) {
        if (v->capacity >= (1 << 28))
            return 0;
        int cap = v->capacity ? 2 * v->capacity : 32;
        candidate *d = (candidate *)realloc(v->data, (size_t)cap * sizeof *d);
        if (!d)
            return 0;
        v->data = d;
        v->capacity = cap;
    }
    v->data[v->count++] = *c;
    return 1;
}

static int cmp_key(uintptr_t ua, c2d_world_id ia, uintptr_t ub, c2d_world_id ib)
{
    if (ua != ub)
        return ua < ub ? -1 : 1;
    return ia < ib ? -1 : (ia > ib);
}

static int cmp_candidate(const void *pa, const void *pb)
{
    const candidate *a = (const candidate *)pa, *b = (const candidate *)pb;
    return cmp_key(a->user, a->id, b->user, b->id);
}

static int cmp_candidate_t(const void *pa, const void *pb)
{
    const candidate *a = (const candidate *)pa, *b = (const candidate *)pb;
    if (a->t != b->t)
        return a->t < b->t ? -1 : 1;
    return cmp_key(a->user, a->id, b->user, b->id);
}

static int filter_bits(const c2d_world_filter *f, unsigned category, unsigned mask)
{
    return !f || ((f->category & mask) && (category & f->mask));
}

/* Runs the accept callback on a candidate; 0 when the candidate is gone or refused. The entry is
 * looked up again afterwards, since the callback may have removed it. */
static const entry *accept(const c2d_world *w, const c2d_world_filter *f, const candidate *c)
{
    if (f && f->accept && !lookup(w, c->id))
        return NULL;
    if (f && f->accept && !f->accept(f->ctx, c->id, c->user))
        return NULL;
    return lookup(w, c->id);
}

/* Collects the candidates from the tree's leaves that pass the filter's bits and `keep` (a test on
 * the entry's tight box), in the world's order. Returns 0 when memory ran out. */
typedef int (*keep_fn)(const entry *e, const void *arg);

static int collect(const c2d_world *w, c2d_aabb box, const c2d_world_filter *f, keep_fn keep, const void *arg,
                   cand_vec *out)
{
    c2d_ivec leaves;
    c2d_ivec_init(&leaves);
    c2d_tree_query(&w->tree, box, &leaves);
    int ok = !leaves.failed;
    for (int k = 0; ok && k < leaves.count; k++) {
        const c2d_tree_node *n = &w->tree.nodes[leaves.data[k]];
        if (!filter_bits(f, n->category, n->mask))
            continue;
        const entry *e = &w->entries[n->item];
        if (!keep(e, arg))
            continue;
        candidate c;
        memset(&c, 0, sizeof c);
        c.user = e->user;
        c.id = entry_id(w, e);
        ok = cand_push(out, &c);
    }
    c2d_ivec_free(&leaves);
    if (ok && out->count > 1)
        qsort(out->data, (size_t)out->count, sizeof *out->data, cmp_candidate);
    return ok;
}

/* Drops candidates whose entries a later callback removed, and refreshes user values a callback may
 * have changed (restoring the world's order when one did). Without callbacks nothing can change. */
static void drop_dead(const c2d_world *w, const c2d_world_filter *f, cand_vec *v, int resort)
{
    if (!f || !f->accept)
        return;
    int n = 0, changed = 0;
    for (int k = 0; k < v->count; k++) {
        const entry *e = lookup(w, v->data[k].id);
        if (!e)
            continue;
        changed |= e->user != v->data[k].user;
        v->data[k].user = e->user;
        v->data[n++] = v->data[k];
    }
    v->count = n;
    if (changed && resort && n > 1)
        qsort(v->data, (size_t)n, sizeof *v->data, cmp_candidate);
}

/* A list call given no array (NULL, capacity 0) asks for the count only: it answers C2D_OK, as
 * c2d_shape_get_vertices does (the header's rule for every list). */
static int count_only(const void *out, int capacity)
{
    return out == NULL && capacity == 0;
}

/* Copies the accepted candidates out (all of them or nothing) and sets *count. */
static c2d_status deliver_hits(const cand_vec *v, c2d_world_hit *out, int capacity, int *count)
{
    *count = v->count;
    if (count_only(out, capacity))
        return C2D_OK;
    if (v->count > capacity)
        return C2D_ERR_CAPACITY;
    for (int k = 0; k < v->count; k++) {
        out[k].id = v->data[k].id;
        out[k].user = v->data[k].user;
    }
    return C2D_OK;
}

static c2d_status check_out(const c2d_world *w, const void *out, int capacity, const int *count)
{
    if (!w || !count || (!out && capacity > 0))
        return C2D_ERR_NULL;
    if (capacity < 0)
        return C2D_ERR_RANGE;
    return C2D_OK;
}

/* ---- box, point and shape queries -------------------------------------------------------------- */

static int keep_box(const entry *e, const void *arg)
{
    return c2d_aabb_overlaps(&e->tight, (const c2d_aabb *)arg);
}

static int keep_point(const entry *e, const void *arg)
{
    const c2d_vec2 *p = (const c2d_vec2 *)arg;
    const c2d_aabb *b = &e->tight;
    /* c2d_contains_point decides from edge lines whose rounding may put a boundary point a hair
     * outside the box of the vertices; a box grown by rounding keeps every such point. */
    double tol = 1e-12 * (fabs(p->x) + fabs(p->y) + (b->max.x - b->min.x) + (b->max.y - b->min.y));
    return b->min.x - tol <= p->x && p->x <= b->max.x + tol && b->min.y - tol <= p->y && p->y <= b->max.y + tol;
}

/* The exact test of one query kind against one entry's shape. */
typedef enum { Q_SHAPE, Q_POINT, Q_BOX_INSIDE } query_kind;

/* The entries one query finds, into v (in the world's order, callbacks run); v is freed on an error. */
static c2d_status query_entries(const c2d_world *w, c2d_aabb box, query_kind kind, const c2d_shape *probe,
                                c2d_vec2 point, const c2d_world_filter *f, cand_vec *v_out)
{
    cand_vec v = {NULL, 0, 0};
    int ok = kind == Q_POINT ? collect(w, box, f, keep_point, &point, &v) : collect(w, box, f, keep_box, &box, &v);
    if (!ok) {
        free(v.data);
        return C2D_ERR_NO_MEMORY;
    }
    int n = 0;
    for (int k = 0; k < v.count; k++) {
        const entry *e = accept(w, f, &v.data[k]);
        if (!e)
            continue;
        int hit = 0;
        c2d_aabb tight;
        if (kind == Q_POINT)
            c2d_contains_point(e->shape, point, &hit);
        else if (kind == Q_BOX_INSIDE && (tight = c2d_shape_aabb(e->shape), c2d_aabb_contains(&box, &tight)))
            hit = 1; /* the shape lies inside its own box, which lies inside the query box */
        else if (c2d_overlap(probe, e->shape, &hit) != C2D_OK) {
            free(v.data); /* out of memory (two large polygons): nothing is written */
            return C2D_ERR_NO_MEMORY;
        }
        if (hit)
            v.data[n++] = v.data[k];
    }
    v.count = n;
    drop_dead(w, f, &v, 1);
    *v_out = v;
    return C2D_OK;
}

static c2d_status run_query(const c2d_world *w, c2d_aabb box, query_kind kind, const c2d_shape *probe,
                            c2d_vec2 point, const c2d_world_filter *f, c2d_world_hit *out, int capacity,
                            int *count)
{
    cand_vec v;
    c2d_status st = query_entries(w, box, kind, probe, point, f, &v);
    if (st != C2D_OK)
        return st;
    st = deliver_hits(&v, out, capacity, count);
    free(v.data);
    return st;
}

/* The entries of c2d_world_query_aabb, into *v. */
static c2d_status aabb_entries(const c2d_world *world, c2d_aabb box, const c2d_world_filter *filter, cand_vec *v)
{
    c2d_status st;
    if ((st = c2d_check_vec(box.min)) || (st = c2d_check_vec(box.max)))
        return st;
    if (box.min.x > box.max.x || box.min.y > box.max.y)
        return C2D_ERR_RANGE;
    double wdt = box.max.x - box.min.x, hgt = box.max.y - box.min.y;
    c2d_vec2 c = v2_mid(box.min, box.max);
    if (wdt == 0 && hgt == 0)
        return query_entries(world, box, Q_POINT, NULL, box.min, filter, v);
    /* A box with no width or no height is a segment, which has no rectangle to stand for it. */
    c2d_shape *probe = NULL;
    if (wdt == 0 || hgt == 0)
        st = c2d_segment_new(box.min, box.max, &probe);
    else
        st = c2d_box_probe_new(box, &probe);
    if (st)
        return st;
    st = query_entries(world, box, Q_BOX_INSIDE, probe, c, filter, v);
    c2d_shape_destroy(probe);
    return st;
}

c2d_status c2d_world_query_aabb(const c2d_world *world, c2d_aabb box, const c2d_world_filter *filter,
                                c2d_world_hit *out, int capacity, int *count)
{
    c2d_status st = check_out(world, out, capacity, count);
    if (st)
        return st;
    cand_vec v;
    if ((st = aabb_entries(world, box, filter, &v)))
        return st;
    st = deliver_hits(&v, out, capacity, count);
    free(v.data);
    return st;
}

c2d_status c2d_world_query_aabb_all(const c2d_world *world, c2d_aabb box, const c2d_world_filter *filter,
                                    c2d_world_hit **out, int *count)
{
    cand_vec v;
    c2d_status st = aabb_entries(world, box, filter, &v);
    if (st)
        return st;
    c2d_world_hit *hits = (c2d_world_hit *)malloc((size_t)(v.count > 0 ? v.count : 1) * sizeof *hits);
    if (!hits) {
        free(v.data);
        return C2D_ERR_NO_MEMORY;
    }
    for (int k = 0; k < v.count; k++) {
        hits[k].id = v.data[k].id;
        hits[k].user = v.data[k].user;
    }
    *out = hits;
    *count = v.count;
    free(v.data);
    return C2D_OK;
}

c2d_status c2d_world_query_point(const c2d_world *world, c2d_vec2 p, const c2d_world_filter *filter,
                                 c2d_world_hit *out, int capacity, int *count)
{
    c2d_status st = check_out(world, out, capacity, count);
    if (st)
        return st;
    if ((st = c2d_check_vec(p)))
        return st;
    c2d_aabb box;
    box.min = p;
    box.max = p;
    return run_query(world, box, Q_POINT, NULL, p, filter, out, capacity, count);
}

c2d_status c2d_world_query_shape(const c2d_world *world, const c2d_shape *shape, const c2d_world_filter *filter,
                                 c2d_world_hit *out, int capacity, int *count)
{
    c2d_status st = check_out(world, out, capacity, count);
    if (st)
        return st;
    if (!shape)
        return C2D_ERR_NULL;
    return run_query(world, c2d_shape_aabb(shape), Q_SHAPE, shape, shape->pos, filter, out, capacity, count);
}

/* ---- ray casts -------------------------------------------------------------------------------- */

typedef struct ray {
    c2d_vec2 o, d, inv;
    /* The origin as the box tests use it, moved by the ray's rounding allowance: olo against boxes'
     * lower bounds, ohi against their upper bounds, so that every box is tested grown by it (see
     * check_ray). */
    c2d_vec2 olo, ohi;
    double max_t;
    /* A component of d is so small that its inverse overflows (below 1 / DBL_MAX): the slab test
     * divides by d instead, or a box 1e-81 ahead along a direction of 5e-324 would be "at infinity"
     * and missed, though the shape in it is hit at t = 7.7e242. */
    int divide;
} ray;

/* The ray's parameter where it crosses x along axis component d (origin o, inverse inv). */
static inline double slab_t(const ray *r, double x, double o, double d, double inv)
{
    return r->divide ? (x - o) / d : (x - o) * inv;
}

/* Where the ray enters the box, or +INFINITY if it misses it within [0, limit]. */
static inline double ray_box(const ray *r, const c2d_aabb *b, double limit)
{
    double t0 = 0.0, t1 = limit;
    if (r->d.x != 0) {
        double a = slab_t(r, b->min.x, r->olo.x, r->d.x, r->inv.x), c = slab_t(r, b->max.x, r->ohi.x, r->d.x, r->inv.x);
        t0 = dmax(t0, dmin(a, c));
        t1 = dmin(t1, dmax(a, c));
    } else if (r->olo.x < b->min.x || r->ohi.x > b->max.x) {
        return INFINITY;
    }
    if (r->d.y != 0) {
        double a = slab_t(r, b->min.y, r->olo.y, r->d.y, r->inv.y), c = slab_t(r, b->max.y, r->ohi.y, r->d.y, r->inv.y);
        t0 = dmax(t0, dmin(a, c));
        t1 = dmin(t1, dmax(a, c));
    } else if (r->olo.y < b->min.y || r->ohi.y > b->max.y) {
        return INFINITY;
    }
    return t0 <= t1 ? t0 : INFINITY;
}

static c2d_status check_ray(c2d_vec2 origin, c2d_vec2 direction, double max_t, ray *r)
{
    c2d_status st;
    if ((st = c2d_check_vec(origin)) || (st = c2d_check_vec(direction)))
        return st;
    if (isnan(max_t))
        return C2D_ERR_NOT_FINITE;
    if (max_t < 0)
        return C2D_ERR_RANGE;
    if (direction.x == 0 && direction.y == 0)
        return C2D_ERR_DEGENERATE;
    r->o = origin;
    /* c2d_raycast counts a point within 4 eps (|o| + 2 reach) of the ray's line as on it, o being the
     * origin in the shape's frame (|o.x| + |o.y| <= sqrt(2) (|origin|_1 + |position|_1)): a ray may
     * touch a shape whose box it passes beside by that much. Entries' boxes are grown by the shape's
     * own part (tight_box); the origin's part is this, added to every box the ray is tested against
     * by moving the origin the other way, one ulp of it at least. */
    double m = 6 * DBL_EPSILON * (fabs(origin.x) + fabs(origin.y));
    r->olo = v2(nextafter(origin.x + m, INFINITY), nextafter(origin.y + m, INFINITY));
    r->ohi = v2(nextafter(origin.x - m, -INFINITY), nextafter(origin.y - m, -INFINITY));
    r->d = direction;
    r->inv = v2(direction.x != 0 ? 1.0 / direction.x : 0.0, direction.y != 0 ? 1.0 / direction.y : 0.0);
    r->divide = isinf(r->inv.x) || isinf(r->inv.y);
    r->max_t = max_t;
    return C2D_OK;
}

/* Every leaf whose box the ray enters within [0, max_t] that passes the bits, hit or not, in the
 * world's order. */
static int collect_ray(const c2d_world *w, const ray *r, const c2d_world_filter *f, cand_vec *out)
{
    const c2d_tree *t = &w->tree;
    if (t->root == C2D_TREE_NULL)
        return 1;
    c2d_ivec stack;
    c2d_ivec_init(&stack);
    c2d_ivec_push(&stack, t->root);
    int ok = 1;
    while (ok && stack.count > 0) {
        int i = stack.data[--stack.count];
        const c2d_tree_node *n = &t->nodes[i];
        if (ray_box(r, &n->box, r->max_t) == INFINITY)
            continue;
        if (n->child1 != C2D_TREE_NULL) {
            c2d_ivec_push(&stack, n->u.in.child2);
            c2d_ivec_push(&stack, n->child1);
            ok = !stack.failed;
            continue;
        }
        if (!filter_bits(f, n->category, n->mask))
            continue;
        const entry *e = &w->entries[n->item];
        candidate c;
        memset(&c, 0, sizeof c);
        c.user = e->user;
        c.id = entry_id(w, e);
        ok = cand_push(out, &c);
    }
    c2d_ivec_free(&stack);
    if (ok && out->count > 1)
        qsort(out->data, (size_t)out->count, sizeof *out->data, cmp_candidate);
    return ok;
}

/* c2d_raycast against one shape. A hit must have a finite t: with max_t = +infinity the core
 * (version 1.0.0) reports a miss as a hit at t = +infinity, which must not count here. */
static void cast_one(const c2d_shape *s, const ray *r, double max_t, c2d_ray_hit *h)
{
    c2d_raycast(s, r->o, r->d, max_t, h);
    if (h->hit && !(h->t < INFINITY))
        memset(h, 0, sizeof *h);
}

/* Casts against every candidate that survives the filter; keeps the hits in v (t filled in). */
static void cast_candidates(const c2d_world *w, const ray *r, const c2d_world_filter *f, cand_vec *v)
{
    int n = 0;
    for (int k = 0; k < v->count; k++) {
        const entry *e = accept(w, f, &v->data[k]);
        if (!e)
            continue;
        c2d_ray_hit h;
        cast_one(e->shape, r, r->max_t, &h);
        if (!h.hit)
            continue;
        v->data[k].ray = h;
        v->data[k].t = h.t;
        v->data[n++] = v->data[k];
    }
    v->count = n;
}

/* The ray in the form the first-hit walk tests boxes by when both direction components are nonzero
 * and have finite inverses (the usual case): for each axis, the byte offsets in a c2d_aabb of the
 * bound the ray crosses first (near) and last (far), chosen once by the direction's signs. The slab
 * parameters are then the same products (x - o) * inv as ray_box's, and since rounding is monotonic
 * the near one is exactly ray_box's min of the two and the far one its max: the same entry parameter
 * and the same verdict, without the branches and the min and max of the pair. */
typedef struct fast_ray {
    double onx, ofx, ony, ofy; /* the origin as ray_box uses it against the near and far bounds */
    double ix, iy;
    size_t nx, fx, ny, fy; /* byte offsets of the near and far bounds per axis */
} fast_ray;

static inline double box_at(const c2d_aabb *b, size_t off)
{
    return *(const double *)((const char *)b + off);
}

/* Where the ray enters the box, or +INFINITY if it misses it within [0, limit]: ray_box's answer. */
static inline double fast_ray_box(const fast_ray *r, const c2d_aabb *b, double limit)
{
    double nx = (box_at(b, r->nx) - r->onx) * r->ix, fx = (box_at(b, r->fx) - r->ofx) * r->ix;
    double ny = (box_at(b, r->ny) - r->ony) * r->iy, fy = (box_at(b, r->fy) - r->ofy) * r->iy;
    double t0 = dmax(dmax(0.0, nx), ny), t1 = dmin(dmin(limit, fx), fy);
    return t0 <= t1 ? t0 : INFINITY;
}

/* The walk's stack: nodes still to search, each with the parameter where the ray enters its box. Every
 * node pushed is the sibling of a node on the path from the root to the node being searched, so the
 * stack never holds more nodes than the tree is high. */
#define RAY_STACK 64

/* Fetches the nodes that follow node c in a treelet (see tree.h) but c itself, which the caller
 * reads at once: as many as a full treelet has, in straight-line code (a loop costs a mispredicted
 * branch per treelet). In a treelet that is not full they are nodes of the next one, in depth-first
 * order the likeliest to be walked next anyway. */
static inline void prefetch_treelet(const c2d_tree *t, int c)
{
#if defined(__GNUC__)
    if (c > t->capacity - (1 << C2D_TREELET_LEVELS))
        return;
    const char *p = (const char *)&t->nodes[c];
    __builtin_prefetch(p + 1 * sizeof(c2d_tree_node));
    __builtin_prefetch(p + 2 * sizeof(c2d_tree_node));
#if C2D_TREELET_LEVELS >= 3
    __builtin_prefetch(p + 3 * sizeof(c2d_tree_node));
    __builtin_prefetch(p + 4 * sizeof(c2d_tree_node));
    __builtin_prefetch(p + 5 * sizeof(c2d_tree_node));
    __builtin_prefetch(p + 6 * sizeof(c2d_tree_node));
#endif
#else
    (void)t, (void)c;
#endif
}

/* The first hit so far: the leaf and the hit. The entry (id and user value) is looked up only when
 * two hits tie and at the end: the leaf holds the shape, so the walk reaches it without the entry. */
typedef struct ray_best {
    double t;    /* the ray's end: max_t, then the t of the best hit */
    int leaf;    /* C2D_TREE_NULL before the first hit */
    c2d_ray_hit hit;
} ray_best;

/* Searches a leaf whose box the ray enters within [0, b->t]: the exact test, clipped at the best hit
 * so far. Ties at equal t go to the smaller key. */
static inline void ray_leaf(const c2d_world *w, const ray *r, const c2d_world_filter *f, int leaf, ray_best *b)
{
    const c2d_tree_node *n = &w->tree.nodes[leaf];
    if (!filter_bits(f, n->category, n->mask))
        return;
    c2d_ray_hit h;
    cast_one((const c2d_shape *)n->u.data, r, b->t, &h);
    if (!h.hit)
        return;
    if (b->leaf != C2D_TREE_NULL && h.t == b->t) {
        const entry *e = &w->entries[n->item], *o = &w->entries[w->tree.nodes[b->leaf].item];
        if (cmp_key(e->user, entry_id(w, e), o->user, entry_id(w, o)) > 0)
            return;
    }
    b->t = h.t;
    b->leaf = leaf;
    b->hit = h;
#if defined(__GNUC__)
    __builtin_prefetch(&w->entries[n->item]); /* read at the end */
#endif
}

/* The first hit without callbacks: a walk that clips the ray at the best hit so far, so a ray into a
 * crowded world tests few shapes. At each internal node both children's boxes are tested; the nearer
 * child (by where the ray enters its box) is searched next without going through the stack, the farther
 * one is pushed with its entry parameter, and is dropped unlooked-at when popped if the best hit so far
 * comes before the ray enters its box (the test ray_box would make again, which fails exactly then).
 * The answer is the hit with the smallest t, ties to the smallest key, whatever the order: c2d_raycast's
 * t does not depend on the max_t it is given, and no box the ray enters within the best t is skipped.
 * FAST selects fast_ray_box (both direction components nonzero with finite inverses) over ray_box. */
#if defined(__GNUC__)
__attribute__((always_inline))
#endif
static inline int walk_first_hit(const c2d_world *w, const ray *r, const fast_ray *fr, int fast,
                                 const c2d_world_filter *f, c2d_world_ray_hit *best)
{
    const c2d_tree *t = &w->tree;
    const c2d_tree_node *nodes = t->nodes;
    ray_best rb;
    rb.t = r->max_t;
    rb.leaf = C2D_TREE_NULL;
    memset(&rb.hit, 0, sizeof rb.hit);
    double best_t = r->max_t;
    int node = t->root;
    double tn = fast ? fast_ray_box(fr, &nodes[node].box, best_t) : ray_box(r, &nodes[node].box, best_t);
    if (tn == INFINITY)
        return 1;
    int stack_node[RAY_STACK], *sn = stack_node;
    double stack_t[RAY_STACK], *st = stack_t;
    int height = nodes[node].height;
    void *heap = NULL;
    if (height > RAY_STACK) {
        /* Only a tree far out of balance is this high: a rebuilt one of 2^30 nodes is 30 high. */
        heap = malloc((size_t)height * (sizeof *sn + sizeof *st));
        if (!heap)
            return 0;
        st = (double *)heap;
        sn = (int *)(st + height);
    }
    int top = 0;
    for (;;) {
        const c2d_tree_node *n = &nodes[node];
        if (n->child1 == C2D_TREE_NULL) {
            ray_leaf(w, r, f, node, &rb);
            best_t = rb.t;
        } else {
            int c1 = n->child1, c2 = n->u.in.child2;
            /* The walk waits on memory at every level of a tree bigger than the cache; at the edge
             * of a treelet the next levels are fetched together instead. */
            if (n->u.in.treelets) {
                prefetch_treelet(t, c1);
                prefetch_treelet(t, c2);
            }
            const c2d_tree_node *a = &nodes[c1], *b = &nodes[c2];
            double ta, tb;
            if (fast) {
                ta = fast_ray_box(fr, &a->box, best_t);
                tb = fast_ray_box(fr, &b->box, best_t);
            } else {
                ta = ray_box(r, &a->box, best_t);
                tb = ray_box(r, &b->box, best_t);
            }
            if (tb < ta) {
                int ci = c1;
                double tt = ta;
                c1 = c2;
                c2 = ci;
                ta = tb;
                tb = tt;
            }
            if (ta != INFINITY) {
                if (tb != INFINITY) {
#if defined(__GNUC__)
                    /* Its children are read when it is popped: fetched meanwhile. */
                    const c2d_tree_node *far = &nodes[c2];
                    if (far->child1 != C2D_TREE_NULL) {
                        __builtin_prefetch(&nodes[far->child1]);
                        __builtin_prefetch(&nodes[far->u.in.child2]);
                    } else {
                        __builtin_prefetch(far->u.data);
                    }
#endif
                    sn[top] = c2;
                    st[top] = tb;
                    top++;
                }
                node = c1;
                continue;
            }
        }
        /* Next: the nearest-pushed node the ray still enters before the best hit. */
        while (top > 0 && st[top - 1] > best_t)
            top--;
        if (top == 0)
            break;
        top--;
        node = sn[top];
    }
    free(heap);
    if (rb.leaf != C2D_TREE_NULL) {
        const entry *e = &w->entries[nodes[rb.leaf].item];
        best->id = entry_id(w, e);
        best->user = e->user;
        best->ray = rb.hit;
    }
    return 1;
}

static int first_hit_walk(const c2d_world *w, const ray *r, const c2d_world_filter *f, c2d_world_ray_hit *best)
{
    if (w->tree.root == C2D_TREE_NULL)
        return 1;
    fast_ray fr;
    if (r->d.x != 0 && r->d.y != 0 && !r->divide) {
        fr.onx = r->d.x > 0 ? r->olo.x : r->ohi.x;
        fr.ofx = r->d.x > 0 ? r->ohi.x : r->olo.x;
        fr.ony = r->d.y > 0 ? r->olo.y : r->ohi.y;
        fr.ofy = r->d.y > 0 ? r->ohi.y : r->olo.y;
        fr.ix = r->inv.x;
        fr.iy = r->inv.y;
        fr.nx = r->d.x > 0 ? offsetof(c2d_aabb, min.x) : offsetof(c2d_aabb, max.x);
        fr.fx = r->d.x > 0 ? offsetof(c2d_aabb, max.x) : offsetof(c2d_aabb, min.x);
        fr.ny = r->d.y > 0 ? offsetof(c2d_aabb, min.y) : offsetof(c2d_aabb, max.y);
        fr.fy = r->d.y > 0 ? offsetof(c2d_aabb, max.y) : offsetof(c2d_aabb, min.y);
        return walk_first_hit(w, r, &fr, 1, f, best);
    }
    return walk_first_hit(w, r, NULL, 0, f, best);
}

c2d_status c2d_world_raycast(const c2d_world *world, c2d_vec2 origin, c2d_vec2 direction, double max_t,
                             const c2d_world_filter *filter, c2d_world_ray_hit *out)
{
    if (!world || !out)
        return C2D_ERR_NULL;
    ray r;
    c2d_status st = check_ray(origin, direction, max_t, &r);
    if (st)
        return st;
    c2d_world_ray_hit best;
    memset(&best, 0, sizeof best);
    if (!filter || !filter->accept) {
        if (!first_hit_walk(world, &r, filter, &best))
            return C2D_ERR_NO_MEMORY;
        *out = best;
        return C2D_OK;
    }
    /* With a callback: collect first, then filter in order (callbacks may change the world). */
    cand_vec v = {NULL, 0, 0};
    if (!collect_ray(world, &r, filter, &v)) {
        free(v.data);
        return C2D_ERR_NO_MEMORY;
    }
    cast_candidates(world, &r, filter, &v);
    drop_dead(world, filter, &v, 1);
    for (int k = 0; k < v.count; k++) {
        const candidate *c = &v.data[k];
        if (!best.ray.hit || c->t < best.ray.t) { /* candidates are in key order: first wins ties */
            best.id = c->id;
            best.user = c->user;
            best.ray = c->ray;
        }
    }
    free(v.data);
    *out = best;
    return C2D_OK;
}

c2d_status c2d_world_raycast_all(const c2d_world *world, c2d_vec2 origin, c2d_vec2 direction, double max_t,
                                 const c2d_world_filter *filter, c2d_world_ray_hit *out, int capacity, int *count)
{
    c2d_status st = check_out(world, out, capacity, count);
    if (st)
        return st;
    ray r;
    if ((st = check_ray(origin, direction, max_t, &r)))
        return st;
    cand_vec v = {NULL, 0, 0};
    if (!collect_ray(world, &r, filter, &v)) {
        free(v.data);
        return C2D_ERR_NO_MEMORY;
    }
    cast_candidates(world, &r, filter, &v);
    drop_dead(world, filter, &v, 0);
    if (v.count > 1)
        qsort(v.data, (size_t)v.count, sizeof *v.data, cmp_candidate_t);
    *count = v.count;
    if (count_only(out, capacity) || v.count > capacity) {
        free(v.data);
        return count_only(out, capacity) ? C2D_OK : C2D_ERR_CAPACITY;
    }
    for (int k = 0; k < v.count; k++) {
        out[k].id = v.data[k].id;
        out[k].user = v.data[k].user;
        out[k].ray = v.data[k].ray;
    }
    free(v.data);
    return C2D_OK;
}

/* ---- pairs ------------------------------------------------------------------------------------ */

typedef struct kv {
    uint64_t key;
    uint64_t val;
} kv;

/* Stable LSD radix sort of n keys, RADIX_BITS a pass, skipping the passes whose digit is the same in
 * every key: pair keys of ranks below 2^16 need 3 passes of 11 bits, not 4 of 8. The passes go back
 * and forth between a and tmp (n keys); returns the one holding the result. */
#define RADIX_BITS 11
#define RADIX_SIZE (1 << RADIX_BITS)
static uint64_t *radix_sort64(uint64_t *a, uint64_t *tmp, size_t n)
{
    uint64_t all_or = 0, all_and = ~(uint64_t)0;
    for (size_t i = 0; i < n; i++) {
        all_or |= a[i];
        all_and &= a[i];
    }
    uint64_t varies = all_or ^ all_and;
    size_t counts[RADIX_SIZE];
    for (int shift = 0; shift < 64; shift += RADIX_BITS) {
        if (!((varies >> shift) & (RADIX_SIZE - 1)))
            continue;
        memset(counts, 0, sizeof counts);
        for (size_t i = 0; i < n; i++)
            counts[(a[i] >> shift) & (RADIX_SIZE - 1)]++;
        size_t sum = 0;
        for (int b = 0; b < RADIX_SIZE; b++) {
            size_t c = counts[b];
            counts[b] = sum;
            sum += c;
        }
        for (size_t i = 0; i < n; i++)
            tmp[counts[(a[i] >> shift) & (RADIX_SIZE - 1)]++] = a[i];
        uint64_t *x = a;
        a = tmp;
        tmp = x;
    }
    return a;
}

/* The same for (key, val) items, 8 bits a pass; the result ends in a. tmp holds n items. */
static void radix_sort(kv *a, kv *tmp, size_t n)
{
    uint64_t all_or = 0, all_and = ~(uint64_t)0;
    for (size_t i = 0; i < n; i++) {
        all_or |= a[i].key;
        all_and &= a[i].key;
    }
    uint64_t varies = all_or ^ all_and;
    for (int shift = 0; shift < 64; shift += 8) {
        if (!((varies >> shift) & 0xFF))
            continue;
        size_t counts[256] = {0};
        for (size_t i = 0; i < n; i++)
            counts[(a[i].key >> shift) & 0xFF]++;
        size_t sum = 0;
        for (int b = 0; b < 256; b++) {
            size_t c = counts[b];
            counts[b] = sum;
            sum += c;
        }
        for (size_t i = 0; i < n; i++)
            tmp[counts[(a[i].key >> shift) & 0xFF]++] = a[i];
        memcpy(a, tmp, n * sizeof *a);
    }
}

/* rank[slot] for every live slot, increasing in the world's order, and order[rank] = slot. When the
 * user values already increase with the slots (a user value that is an index, handed out in order,
 * or all equal) the slots are their own ranks and no sort is needed. */
static int rank_entries(const c2d_world *w, uint32_t *rank, uint32_t *order)
{
    int sorted = 1, have = 0;
    uintptr_t last = 0;
    for (int i = 0; i < w->slots && sorted; i++) {
        const entry *e = &w->entries[i];
        if (!e->shape)
            continue;
        if (have && e->user < last)
            sorted = 0;
        last = e->user;
        have = 1;
    }
    if (sorted) {
        for (int i = 0; i < w->slots; i++)
            rank[i] = order[i] = (uint32_t)i;
        return 1;
    }
    size_t n = (size_t)w->count;
    kv *a = (kv *)malloc(2 * n * sizeof *a);
    if (!a)
        return 0;
    size_t k = 0;
    for (int i = 0; i < w->slots; i++)
        if (w->entries[i].shape) {
            a[k].key = (uint64_t)w->entries[i].user;
            a[k].val = (uint64_t)i;
            k++;
        }
    radix_sort(a, a + n, n); /* stable: equal users stay in slot order, which is id order */
    for (size_t r = 0; r < n; r++) {
        rank[a[r].val] = (uint32_t)r;
        order[r] = (uint32_t)a[r].val;
    }
    free(a);
    return 1;
}

/* One pair to put in order again after a pair filter re-valued entries. */
typedef struct pair_key {
    uintptr_t ua, ub;
    c2d_world_id ia, ib;
    uint32_t sa, sb;
} pair_key;

static int cmp_pair_key(const void *pa, const void *pb)
{
    const pair_key *a = (const pair_key *)pa, *b = (const pair_key *)pb;
    int c = cmp_key(a->ua, a->ia, b->ua, b->ia);
    return c ? c : cmp_key(a->ub, a->ib, b->ub, b->ib);
}

/* Puts the n pairs of keys (first rank << rbits | second rank, ranks in order[]) in the world's order
 * as the entries' user values now have it: each pair's first entry before its second, the pairs by
 * their first entry, then their second. Leaves each as (first slot << 32) | second slot. 0 when out
 * of memory. */
static int sort_pairs(const c2d_world *w, uint64_t *keys, size_t n, const uint32_t *order, int rbits,
                      uint64_t rmask)
{
    pair_key *p = (pair_key *)malloc((n ? n : 1) * sizeof *p);
    if (!p)
        return 0;
    for (size_t k = 0; k < n; k++) {
        uint32_t sa = order[keys[k] >> rbits], sb = order[keys[k] & rmask];
        const entry *a = &w->entries[sa], *b = &w->entries[sb];
        c2d_world_id ia = entry_id(w, a), ib = entry_id(w, b);
        if (cmp_key(b->user, ib, a->user, ia) < 0) {
            uint32_t ts = sa;
            const entry *te = a;
            c2d_world_id ti = ia;
            sa = sb, a = b, ia = ib;
            sb = ts, b = te, ib = ti;
        }
        p[k].ua = a->user;
        p[k].ub = b->user;
        p[k].ia = ia;
        p[k].ib = ib;
        p[k].sa = sa;
        p[k].sb = sb;
    }
    if (n > 1)
        qsort(p, n, sizeof *p, cmp_pair_key);
    for (size_t k = 0; k < n; k++)
        keys[k] = ((uint64_t)p[k].sa << 32) | p[k].sb;
    free(p);
    return 1;
}

c2d_status c2d_world_pairs(c2d_world *world, c2d_world_pair *out, c2d_contact *contacts, int capacity, int *count)
{
    c2d_status st = check_out(world, out, capacity, count);
    if (st)
        return st;
    c2d_world *w = world;
    if (!flush_moves(w))
        return C2D_ERR_NO_MEMORY;
    size_t slots = (size_t)(w->slots ? w->slots : 1);
    uint32_t *rank = (uint32_t *)malloc(2 * slots * sizeof *rank);
    /* With a pair filter, which may change the world: each entry's user value and generation now. */
    uintptr_t *users = w->pair_fn ? (uintptr_t *)malloc(slots * (sizeof *users + sizeof(unsigned))) : NULL;
    unsigned *gens = users ? (unsigned *)(users + slots) : NULL;
    uint64_t *keys = (uint64_t *)malloc((2 * (size_t)w->pr_used + 1) * sizeof *keys);
    if (!rank || !keys || (w->pair_fn && !gens) || !rank_entries(w, rank, rank + slots)) {
        free(rank);
        free(users);
        free(keys);
        return C2D_ERR_NO_MEMORY;
    }
    const uint32_t *order = rank + slots;
    /* Ranks are below `slots`: a key is (first rank << rbits) | second rank, as narrow as it can be,
     * so that 40,000 entries make 32-bit keys that sort in three passes. */
    int rbits = 1;
    while (rbits < 32 && ((size_t)1 << rbits) < slots)
        rbits++;
    const uint64_t rmask = ((uint64_t)1 << rbits) - 1;
    /* Keep the cached pairs (their bits already pass) whose tight boxes meet, keyed (first rank,
     * second rank) in the world's order. */
    size_t nk = 0;
    for (int p = 0; p < w->pr_used; p++) {
        int ia = w->prs[p].e[0], ib = w->prs[p].e[1];
        if (ia < 0)
            continue;
        if (!c2d_aabb_overlaps(&w->entries[ia].tight, &w->entries[ib].tight))
            continue;
        uint64_t ra = rank[ia], rb = rank[ib];
        keys[nk++] = ra < rb ? (ra << rbits) | rb : (rb << rbits) | ra;
    }
    uint64_t *sorted = radix_sort64(keys, keys + nk, nk);
    if (gens)
        for (int i = 0; i < w->slots; i++) {
            gens[i] = w->entries[i].shape ? w->entries[i].gen : 0;
            users[i] = w->entries[i].user;
        }
    if (!gens && nk <= (size_t)capacity) {
        /* No pair filter and room for every candidate: the narrow phase writes the pairs out as it
         * finds them, reading each pair's entries once. (Otherwise nothing may be written to out
         * before the count is known to fit.) */
        size_t m = 0;
        for (size_t k = 0; k < nk; k++) {
            uint32_t ia = order[sorted[k] >> rbits], ib = order[sorted[k] & rmask];
            const entry *a = &w->entries[ia], *b = &w->entries[ib];
            int hit = 0;
            st = c2d_overlap(a->shape, b->shape, &hit);
            if (st == C2D_OK && hit)
                st = write_pair(out, contacts, m++, (int)ia, a, (int)ib, b);
            if (st != C2D_OK) {
                /* Out of memory: what was written so far is not an answer. */
                *count = 0;
                free(rank);
                free(keys);
                return st;
            }
        }
        *count = (int)m;
        free(rank);
        free(keys);
        return C2D_OK;
    }
    /* Narrow phase, in order; the pair filter may change the world, so entries are checked again. */
    size_t n = 0;
    int revalued = 0;
    for (size_t k = 0; k < nk; k++) {
        uint32_t ia = order[sorted[k] >> rbits], ib = order[sorted[k] & rmask];
        const entry *a = &w->entries[ia], *b = &w->entries[ib];
        if (gens) {
            if (!a->shape || a->gen != gens[ia] || !b->shape || b->gen != gens[ib])
                continue;
            if (!w->pair_fn(w->pair_ctx, make_id((int)ia, a->gen), a->user, make_id((int)ib, b->gen), b->user))
                continue;
            a = &w->entries[ia]; /* the callback may have grown the entry array */
            b = &w->entries[ib];
            if (!a->shape || a->gen != gens[ia] || !b->shape || b->gen != gens[ib])
                continue;
        }
        int hit = 0;
        if (c2d_overlap(a->shape, b->shape, &hit) != C2D_OK) {
            *count = 0;
            free(rank);
            free(users);
            free(keys);
            return C2D_ERR_NO_MEMORY;
        }
        if (hit)
            sorted[n++] = sorted[k];
    }
    /* A pair filter may have removed an entry of a pair it had already accepted (the pair goes), or
     * re-valued one (the pair keeps its place only if the world's order is unchanged). */
    size_t m = 0;
    for (size_t k = 0; k < n; k++) {
        uint32_t ia = order[sorted[k] >> rbits], ib = order[sorted[k] & rmask];
        const entry *a = &w->entries[ia], *b = &w->entries[ib];
        if (gens && (!a->shape || a->gen != gens[ia] || !b->shape || b->gen != gens[ib]))
            continue;
        revalued |= gens && (a->user != users[ia] || b->user != users[ib]);
        sorted[m++] = sorted[k];
    }
    n = m;
    if (revalued && !sort_pairs(w, sorted, n, order, rbits, rmask)) {
        *count = 0;
        free(rank);
        free(users);
        free(keys);
        return C2D_ERR_NO_MEMORY;
    }
    *count = (int)n;
    if (count_only(out, capacity) || n > (size_t)capacity) {
        free(rank);
        free(users);
        free(keys);
        return count_only(out, capacity) ? C2D_OK : C2D_ERR_CAPACITY;
    }
    for (size_t k = 0; k < n; k++) {
        /* Ranks in the world's order of the call's start, or slots in its order now (sort_pairs). */
        uint32_t ia = revalued ? (uint32_t)(sorted[k] >> 32) : order[sorted[k] >> rbits];
        uint32_t ib = revalued ? (uint32_t)(sorted[k] & 0xFFFFFFFFu) : order[sorted[k] & rmask];
        if (write_pair(out, contacts, k, (int)ia, &w->entries[ia], (int)ib, &w->entries[ib]) != C2D_OK) {
            *count = 0;
            free(rank);
            free(users);
            free(keys);
            return C2D_ERR_NO_MEMORY;
        }
    }
    free(rank);
    free(users);
    free(keys);
    return C2D_OK;
}
