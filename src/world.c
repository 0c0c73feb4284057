/* world.c - the world: entries (shape, user value, filter bits) over the dynamic AABB tree, their ids,
 * and the cache of candidate pairs kept up to date as they come, go and move. The queries and ray
 * casts built on it are in worldquery.c, pair finding in worldpairs.c, moves in worldmove.c. Layer 7.
 *
 * The order promised everywhere is by user value, then by id; ids of live entries compare as their slot
 * indices (world.h).
 */
#include "world.h"
#include "turnsweep.h"

#include <float.h>
#include <limits.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* ---- ids and entries -------------------------------------------------------------------------- */

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
int c2d_world_flush_moves(c2d_world *w)
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
/* ---- motions ---------------------------------------------------------------------------------- */

/* Takes slot out of the list of entries in motion, if it is there, and makes its motion still. */
static void drop_moving(c2d_world *w, int slot)
{
    if (!w->motion)
        return;
    if (c2d_motion_moves(&w->motion[slot]))
        for (int k = 0; k < w->n_moving; k++)
            if (w->moving[k] == slot) {
                w->moving[k] = w->moving[--w->n_moving];
                break;
            }
    memset(&w->motion[slot], 0, sizeof w->motion[slot]);
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
    free(world->motion);
    free(world->moving);
    free(world->disabled);
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
        if (world->motion) {
            c2d_motion *mo = (c2d_motion *)realloc(world->motion, (size_t)cap * sizeof *mo);
            if (!mo)
                return C2D_ERR_NO_MEMORY;
            world->motion = mo;
        }
        if (world->disabled) {
            unsigned char *di = (unsigned char *)realloc(world->disabled, (size_t)cap * sizeof *di);
            if (!di)
                return C2D_ERR_NO_MEMORY;
            world->disabled = di;
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
    if (world->motion)
        memset(&world->motion[slot], 0, sizeof world->motion[slot]);
    if (world->disabled)
        world->disabled[slot] = 0;
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
    *out_id = c2d_make_id(slot, e->gen);
    return C2D_OK;
}

c2d_status c2d_world_remove(c2d_world *world, c2d_world_id id)
{
    if (!world)
        return C2D_ERR_NULL;
    entry *e = c2d_lookup(world, id);
    if (!e)
        return C2D_ERR_RANGE;
    c2d_tree_remove(&world->tree, e->node);
    int slot = (int)(e - world->entries);
    clear_pairs(world, slot);
    /* A queued slot stays in the move buffer; MOVE_NONE makes the cache skip it. */
    e->moved = MOVE_NONE;
    drop_moving(world, slot);
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
    entry *e = c2d_lookup(world, id);
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
    const entry *e = c2d_lookup(world, id);
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
    entry *e = c2d_lookup(world, id);
    if (!e)
        return C2D_ERR_RANGE;
    e->user = user;
    return C2D_OK;
}

c2d_status c2d_world_set_bits(c2d_world *world, c2d_world_id id, unsigned int category, unsigned int mask)
{
    if (!world)
        return C2D_ERR_NULL;
    entry *e = c2d_lookup(world, id);
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
    const entry *e = c2d_lookup(world, id);
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
    entry *e = c2d_lookup(world, id);
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

c2d_status c2d_world_set_level(c2d_world *world, const c2d_static_set *level)
{
    if (!world)
        return C2D_ERR_NULL;
    world->level = level;
    return C2D_OK;
}

c2d_status c2d_world_get_level(const c2d_world *world, const c2d_static_set **out)
{
    if (!world || !out)
        return C2D_ERR_NULL;
    *out = world->level;
    return C2D_OK;
}

c2d_status c2d_world_get_one_way(const c2d_world *world, c2d_world_id id, c2d_vec2 *out)
{
    if (!world || !out)
        return C2D_ERR_NULL;
    const entry *e = c2d_lookup(world, id);
    if (!e)
        return C2D_ERR_RANGE;
    *out = world->one_way ? world->one_way[e - world->entries] : v2(0, 0);
    return C2D_OK;
}

c2d_status c2d_world_set_motion(c2d_world *world, c2d_world_id id, const c2d_motion *motion)
{
    if (!world)
        return C2D_ERR_NULL;
    entry *e = c2d_lookup(world, id);
    if (!e)
        return C2D_ERR_RANGE;
    c2d_motion m;
    memset(&m, 0, sizeof m);
    if (motion)
        m = *motion;
    /* The same checks as c2d_static_set_set_motion's, where the shape stands now. */
    c2d_rigid checked;
    c2d_status st = c2d_rigid_of_motion(e->shape, &m, &checked);
    if (st != C2D_OK)
        return st;
    int slot = (int)(e - world->entries);
    int moves = c2d_motion_moves(&m);
    /* Everything that can fail first: a failed call changes nothing. */
    if (!world->motion) {
        if (!moves && m.pivot.x == 0 && m.pivot.y == 0)
            return C2D_OK;
        world->motion = (c2d_motion *)calloc((size_t)world->capacity, sizeof *world->motion);
        if (!world->motion)
            return C2D_ERR_NO_MEMORY;
    }
    int was = c2d_motion_moves(&world->motion[slot]);
    if (moves && !was && world->n_moving == world->moving_cap) {
        int cap = world->moving_cap ? 2 * world->moving_cap : 8;
        int *grown = (int *)realloc(world->moving, (size_t)cap * sizeof *grown);
        if (!grown)
            return C2D_ERR_NO_MEMORY;
        world->moving = grown;
        world->moving_cap = cap;
    }
    if (was && !moves)
        drop_moving(world, slot);
    else if (moves && !was)
        world->moving[world->n_moving++] = slot;
    world->motion[slot] = m;
    return C2D_OK;
}

c2d_status c2d_world_get_motion(const c2d_world *world, c2d_world_id id, c2d_motion *out)
{
    if (!world || !out)
        return C2D_ERR_NULL;
    const entry *e = c2d_lookup(world, id);
    if (!e)
        return C2D_ERR_RANGE;
    if (world->motion)
        *out = world->motion[e - world->entries];
    else
        memset(out, 0, sizeof *out);
    return C2D_OK;
}

c2d_status c2d_world_set_velocity(c2d_world *world, c2d_world_id id, c2d_vec2 velocity)
{
    c2d_motion m;
    c2d_status st = c2d_world_get_motion(world, id, &m);
    if (st != C2D_OK)
        return st;
    m.velocity = velocity;
    return c2d_world_set_motion(world, id, &m);
}

c2d_status c2d_world_get_velocity(const c2d_world *world, c2d_world_id id, c2d_vec2 *out)
{
    if (!world || !out)
        return C2D_ERR_NULL;
    c2d_motion m;
    c2d_status st = c2d_world_get_motion(world, id, &m);
    if (st != C2D_OK)
        return st;
    *out = m.velocity;
    return C2D_OK;
}

c2d_status c2d_world_set_enabled(c2d_world *world, c2d_world_id id, int enabled)
{
    if (!world)
        return C2D_ERR_NULL;
    entry *e = c2d_lookup(world, id);
    if (!e)
        return C2D_ERR_RANGE;
    int slot = (int)(e - world->entries);
    if (!world->disabled) {
        if (enabled)
            return C2D_OK; /* every entry is enabled until one is not */
        world->disabled = (unsigned char *)calloc((size_t)world->capacity, sizeof *world->disabled);
        if (!world->disabled)
            return C2D_ERR_NO_MEMORY;
    }
    world->disabled[slot] = enabled ? 0 : 1;
    return C2D_OK;
}

c2d_status c2d_world_get_enabled(const c2d_world *world, c2d_world_id id, int *out)
{
    if (!world || !out)
        return C2D_ERR_NULL;
    const entry *e = c2d_lookup(world, id);
    if (!e)
        return C2D_ERR_RANGE;
    *out = !c2d_slot_disabled(world, (int)(e - world->entries));
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
