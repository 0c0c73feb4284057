/* world.h - what the world's own files share beyond the public calls: the world's layout (entries over
 * the tree, the pair cache) and the small helpers every one of them uses. Layer 7, the world. */
#ifndef C2D_WORLD_H
#define C2D_WORLD_H

#include "tree.h"

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
    /* Per slot, the rigid motion of moves and ball steps (c2d_world_set_motion): NULL until an entry
     * gets one, beside the entries as one_way is. moving[0 .. n_moving) are the slots whose motion
     * moves or turns them (room for moving_cap), in no order: a move's scope finds them without
     * walking every entry, and a world with none (n_moving 0) moves exactly as before motions. */
    c2d_motion *motion;
    int *moving;
    int n_moving, moving_cap;
    /* The static set its motions meet beside its entries (c2d_world_set_level), or NULL. Not owned. */
    const c2d_static_set *level;
    /* Per slot, 1 while the entry is disabled (c2d_world_set_enabled): NULL until an entry is, beside
     * the entries as one_way is. A disabled entry stays in the tree and the pair cache (so enabling it
     * again costs nothing); the queries, ray casts and pairs skip it where they read the tree's
     * leaves, and moves and ball steps see only what their box query finds. */
    unsigned char *disabled;
};

static inline c2d_world_id c2d_make_id(int slot, unsigned gen)
{
    return ((c2d_world_id)(slot + 1) << GEN_BITS) | gen;
}
/* The live entry an id names, or NULL. */
static inline entry *c2d_lookup(const c2d_world *w, c2d_world_id id)
{
    c2d_world_id s = id >> GEN_BITS;
    if (s == 0 || s > (c2d_world_id)w->slots)
        return NULL;
    entry *e = &w->entries[s - 1];
    return e->shape && e->gen == (unsigned)(id & GEN_MASK) ? e : NULL;
}
static inline c2d_world_id c2d_entry_id(const c2d_world *w, const entry *e)
{
    return c2d_make_id((int)(e - w->entries), e->gen);
}
static inline int c2d_cmp_key(uintptr_t ua, c2d_world_id ia, uintptr_t ub, c2d_world_id ib)
{
    if (ua != ub)
        return ua < ub ? -1 : 1;
    return ia < ib ? -1 : (ia > ib);
}
/* A list call given no array (NULL, capacity 0) asks for the count only: it answers C2D_OK, as
 * c2d_shape_get_vertices does (the header's rule for every list). */
static inline int c2d_count_only(const void *out, int capacity)
{
    return out == NULL && capacity == 0;
}
static inline c2d_status c2d_check_out(const c2d_world *w, const void *out, int capacity, const int *count)
{
    if (!w || !count || (!out && capacity > 0))
        return C2D_ERR_NULL;
    if (capacity < 0)
        return C2D_ERR_RANGE;
    return C2D_OK;
}

/* Plain comparisons: without -ffast-math, fmin and fmax are library calls (they handle NaN, which
 * never reaches these: every number was checked on the way in). */
static inline double dmin(double a, double b) { return a < b ? a : b; }
static inline double dmax(double a, double b) { return a > b ? a : b; }
static inline double max3(double a, double b, double c) { return dmax(dmax(a, b), c); }

/* Whether the entry in slot is disabled (c2d_world_set_enabled). */
static inline int c2d_slot_disabled(const c2d_world *w, int slot)
{
    return w->disabled && w->disabled[slot];
}

/* Whether a motion moves or turns its entry (a pivot alone stands still). */
static inline int c2d_motion_moves(const c2d_motion *m)
{
    return m->velocity.x != 0 || m->velocity.y != 0 || m->angular_velocity != 0;
}

/* Settles the move buffer: the pair cache looks again at the entries re-placed or given new bits since
 * the last call. 0 when out of memory. world.c. */
int c2d_world_flush_moves(c2d_world *w);

/* c2d_world_query_aabb with no capacity to guess: every entry found, in a new array in *out (freed by
 * the caller with free; never NULL on success) and their number in *count. The filter's accept is
 * asked once per candidate, as in every query. worldquery.c. */
c2d_status c2d_world_query_aabb_all(const c2d_world *world, c2d_aabb box, const c2d_world_filter *filter,
                                    c2d_world_hit **out, int *count);

/* c2d_world_query_aabb_all for a move or ball step lasting `horizon` (a move 1, a ball step dt): the
 * entries standing still whose shapes meet the box, as that query finds them, and the entries in
 * motion (c2d_world_set_motion) whose shapes may meet it at some time of the horizon: those whose
 * swept box (their box turned about the pivot and moved by velocity * horizon, see swept_box) meets
 * it. One pass, in the world's order, the filter's accept asked once per candidate. Without an entry
 * in motion it is c2d_world_query_aabb_all. worldquery.c. */
/* 0 when no entry can be within `box` during a motion of `horizon` (no leaf's box overlaps it and no
 * entry is in motion): a world move then needs no scope of entries. 1 when one may be. */
int c2d_world_maybe_near(const c2d_world *world, c2d_aabb box);
c2d_status c2d_world_query_reach_all(const c2d_world *world, c2d_aabb box, double horizon,
                                     const c2d_world_filter *filter, c2d_world_hit **out, int *count);

#endif /* C2D_WORLD_H */
