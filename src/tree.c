/* tree.c - the dynamic AABB tree: the broadphase under the world.
 *
 * The structure is the one Box2D and Bullet use (Presson's dynamic AABB tree): leaves hold fattened
 * boxes so that small moves leave the tree alone; a new leaf goes down the branch that grows the total
 * perimeter least (perimeter, not area: this is 2D); the path back up is rebalanced by AVL rotations.
 * Doubles throughout, like the rest of the library: float boxes break down far from the origin.
 *
 * Pair finding does not query the tree once per leaf (Box2D 2.4's way, O(n log n) from the root even
 * when nothing is near): it descends the tree against itself once, so each overlapping pair of subtrees
 * is visited once and every pair of leaves comes out exactly once, with no duplicates to remove.
 * Layer 7, the world.
 */
#include "tree.h"

#include <stdlib.h>
#include <string.h>

/* ---- small growable int arrays ---------------------------------------------------------------- */

void c2d_ivec_init(c2d_ivec *v)
{
    v->data = v->inline_buf;
    v->count = 0;
    v->capacity = (int)(sizeof v->inline_buf / sizeof v->inline_buf[0]);
    v->failed = 0;
}

void c2d_ivec_free(c2d_ivec *v)
{
    if (v->data != v->inline_buf)
        free(v->data);
    c2d_ivec_init(v);
}

void c2d_ivec_push_slow(c2d_ivec *v, int x)
{
    if (v->failed)
        return;
    if (v->capacity > (1 << 29)) {
        v->failed = 1;
        return;
    }
    int cap = v->capacity * 2;
    int *d = (int *)malloc((size_t)cap * sizeof *d);
    if (!d) {
        v->failed = 1;
        return;
    }
    memcpy(d, v->data, (size_t)v->count * sizeof *d);
    if (v->data != v->inline_buf)
        free(v->data);
    v->data = d;
    v->capacity = cap;
    v->data[v->count++] = x;
}

/* ---- boxes ------------------------------------------------------------------------------------ */

static inline c2d_aabb box_union(const c2d_aabb *a, const c2d_aabb *b)
{
    c2d_aabb r;
    r.min.x = a->min.x < b->min.x ? a->min.x : b->min.x;
    r.min.y = a->min.y < b->min.y ? a->min.y : b->min.y;
    r.max.x = a->max.x > b->max.x ? a->max.x : b->max.x;
    r.max.y = a->max.y > b->max.y ? a->max.y : b->max.y;
    return r;
}

static inline double perimeter(const c2d_aabb *a)
{
    return 2.0 * ((a->max.x - a->min.x) + (a->max.y - a->min.y));
}

static inline int max_int(int a, int b) { return a > b ? a : b; }

/* ---- node pool -------------------------------------------------------------------------------- */

void c2d_tree_init(c2d_tree *t)
{
    memset(t, 0, sizeof *t);
    t->root = C2D_TREE_NULL;
    t->free_list = C2D_TREE_NULL;
}

void c2d_tree_free(c2d_tree *t)
{
    free(t->nodes);
    c2d_tree_init(t);
}

/* Puts nodes [from, to) on the free list, lowest index first. */
static void link_free(c2d_tree *t, int from, int to)
{
    for (int i = to - 1; i >= from; i--) {
        t->nodes[i].parent = t->free_list;
        t->nodes[i].height = -1;
        t->free_list = i;
    }
}

int c2d_tree_reserve(c2d_tree *t, int extra_leaves)
{
    long need = (long)t->used + 2L * extra_leaves;
    if (need <= t->capacity)
        return 1;
    if (need > (1L << 30))
        return 0;
    long cap = t->capacity ? t->capacity : 16;
    while (cap < need)
        cap += cap / 2 + 16;
    if (cap > (1L << 30))
        cap = 1L << 30;
    c2d_tree_node *n = (c2d_tree_node *)realloc(t->nodes, (size_t)cap * sizeof *n);
    if (!n)
        return 0;
    t->nodes = n;
    /* The free list must hand out low indices first so node numbering, and hence traversal order,
     * depends only on the sequence of calls. New nodes go after the existing free ones. */
    int old = t->capacity;
    t->capacity = (int)cap;
    int tail = t->free_list;
    if (tail == C2D_TREE_NULL) {
        link_free(t, old, t->capacity);
    } else {
        while (n[tail].parent != C2D_TREE_NULL)
            tail = n[tail].parent;
        int head = t->free_list;
        t->free_list = C2D_TREE_NULL;
        link_free(t, old, t->capacity);
        n[tail].parent = t->free_list;
        t->free_list = head;
    }
    return 1;
}

static int alloc_node(c2d_tree *t)
{
    int i = t->free_list; /* the caller reserved room */
    c2d_tree_node *n = &t->nodes[i];
    t->free_list = n->parent;
    n->parent = n->child1 = n->u.in.child2 = C2D_TREE_NULL;
    n->height = 0;
    n->category = n->mask = 0;
    n->item = -1;
    n->u.in.treelets = 0;
    t->used++;
    return i;
}

static void free_node(c2d_tree *t, int i)
{
    t->nodes[i].parent = t->free_list;
    t->nodes[i].height = -1;
    t->free_list = i;
    t->used--;
}

/* ---- balancing -------------------------------------------------------------------------------- */

/* A left or right rotation at node a if its children's heights differ by more than one. Returns the
 * node now at a's place. (Box2D's b2DynamicTree::Balance, which names the nodes this way.) */
static int balance(c2d_tree *t, int ia)
{
    c2d_tree_node *n = t->nodes;
    c2d_tree_node *a = &n[ia];
    if (a->child1 == C2D_TREE_NULL || a->height < 2)
        return ia;
    int ib = a->child1, ic = a->u.in.child2;
    c2d_tree_node *b = &n[ib], *c = &n[ic];
    int bal = c->height - b->height;
    if (bal > 1) { /* rotate c up */
        int i_f = c->child1, ig = c->u.in.child2;
        c2d_tree_node *f = &n[i_f], *g = &n[ig];
        c->child1 = ia;
        c->parent = a->parent;
        a->parent = ic;
        if (c->parent != C2D_TREE_NULL) {
            if (n[c->parent].child1 == ia)
                n[c->parent].child1 = ic;
            else
                n[c->parent].u.in.child2 = ic;
        } else {
            t->root = ic;
        }
        if (f->height > g->height) {
            c->u.in.child2 = i_f;
            a->u.in.child2 = ig;
            g->parent = ia;
            a->box = box_union(&b->box, &g->box);
            c->box = box_union(&a->box, &f->box);
            a->height = 1 + max_int(b->height, g->height);
            c->height = 1 + max_int(a->height, f->height);
        } else {
            c->u.in.child2 = ig;
            a->u.in.child2 = i_f;
            f->parent = ia;
            a->box = box_union(&b->box, &f->box);
            c->box = box_union(&a->box, &g->box);
            a->height = 1 + max_int(b->height, f->height);
            c->height = 1 + max_int(a->height, g->height);
        }
        return ic;
    }
    if (bal < -1) { /* rotate b up */
        int id = b->child1, ie = b->u.in.child2;
        c2d_tree_node *d = &n[id], *e = &n[ie];
        b->child1 = ia;
        b->parent = a->parent;
        a->parent = ib;
        if (b->parent != C2D_TREE_NULL) {
            if (n[b->parent].child1 == ia)
                n[b->parent].child1 = ib;
            else
                n[b->parent].u.in.child2 = ib;
        } else {
            t->root = ib;
        }
        if (d->height > e->height) {
            b->u.in.child2 = id;
            a->child1 = ie;
            e->parent = ia;
            a->box = box_union(&c->box, &e->box);
            b->box = box_union(&a->box, &d->box);
            a->height = 1 + max_int(c->height, e->height);
            b->height = 1 + max_int(a->height, d->height);
        } else {
            b->u.in.child2 = ie;
            a->child1 = id;
            d->parent = ia;
            a->box = box_union(&c->box, &d->box);
            b->box = box_union(&a->box, &e->box);
            a->height = 1 + max_int(c->height, d->height);
            b->height = 1 + max_int(a->height, e->height);
        }
        return ib;
    }
    return ia;
}

/* Walks from i towards the root refitting boxes and heights, rebalancing on the way. It stops at the
 * first node that neither rotated nor changed box or height: every node above it is the union of the
 * same children as before, with the same heights, so nothing above can change either. A leaf re-placed
 * near where it was (the usual update) changes only a few levels, and walking all twenty-odd to the
 * root was a third of the cost of an update. (Bitwise comparison, so a refit box is always exactly the
 * union c2d_tree_validate recomputes, signed zeros included.) */
static void refit_up(c2d_tree *t, int i)
{
    c2d_tree_node *n = t->nodes;
    while (i != C2D_TREE_NULL) {
        int j = balance(t, i);
        int c1 = n[j].child1, c2 = n[j].u.in.child2;
        int h = 1 + max_int(n[c1].height, n[c2].height);
        c2d_aabb b = box_union(&n[c1].box, &n[c2].box);
        if (j == i && h == n[j].height && memcmp(&b, &n[j].box, sizeof b) == 0)
            break;
        n[j].height = h;
        n[j].box = b;
        i = n[j].parent;
    }
}

/* ---- insertion and removal -------------------------------------------------------------------- */

/* The sibling for a new leaf: descend while going down is cheaper than pairing here, costing each
 * choice by the perimeter it adds (Box2D 2.4's descent heuristic, with perimeter as the 2D measure).
 * When both children cost the same (both contain the box: the usual case for a small shape
 * re-placed after a move) the nearer centre wins, as in Box2D v3; always taking the first child there
 * is what slowly wrecks a tree under motion (measured: 40,000 drifting circles, the sum of internal
 * perimeters over the root's grows 1,100 -> 1,950 in 60 frames that way, and falls 730 -> 650 this way;
 * v3's full branch and bound gave 850 with these AVL rotations). */
static int find_sibling(const c2d_tree *t, int start, const c2d_aabb *box)
{
    const c2d_tree_node *n = t->nodes;
    double cx = box->min.x + box->max.x, cy = box->min.y + box->max.y;
    int i = start;
    while (n[i].child1 != C2D_TREE_NULL) {
        int c1 = n[i].child1, c2 = n[i].u.in.child2;
        double area = perimeter(&n[i].box);
        c2d_aabb combined = box_union(&n[i].box, box);
        double combined_area = perimeter(&combined);
        double cost = 2.0 * combined_area;
        double inherit = 2.0 * (combined_area - area);
        c2d_aabb u1 = box_union(box, &n[c1].box), u2 = box_union(box, &n[c2].box);
        double cost1 = perimeter(&u1) + inherit, cost2 = perimeter(&u2) + inherit;
        if (n[c1].child1 != C2D_TREE_NULL)
            cost1 -= perimeter(&n[c1].box);
        if (n[c2].child1 != C2D_TREE_NULL)
            cost2 -= perimeter(&n[c2].box);
        if (cost < cost1 && cost < cost2)
            break;
        if (cost1 == cost2) {
            double d1x = n[c1].box.min.x + n[c1].box.max.x - cx, d1y = n[c1].box.min.y + n[c1].box.max.y - cy;
            double d2x = n[c2].box.min.x + n[c2].box.max.x - cx, d2y = n[c2].box.min.y + n[c2].box.max.y - cy;
            i = d1x * d1x + d1y * d1y <= d2x * d2x + d2y * d2y ? c1 : c2;
        } else {
            i = cost1 < cost2 ? c1 : c2;
        }
    }
    return i;
}

/* Hangs leaf (box already set) beside the best sibling found below `start`. */
static void attach_leaf(c2d_tree *t, int leaf, int start)
{
    c2d_tree_node *n = t->nodes;
    c2d_aabb box = n[leaf].box;
    int sibling = find_sibling(t, start, &box);
    int old_parent = n[sibling].parent;
    int parent = alloc_node(t);
    n[parent].parent = old_parent;
    n[parent].box = box_union(&box, &n[sibling].box);
    n[parent].height = n[sibling].height + 1;
    n[parent].child1 = sibling;
    n[parent].u.in.child2 = leaf;
    n[sibling].parent = parent;
    n[leaf].parent = parent;
    if (old_parent == C2D_TREE_NULL) {
        t->root = parent;
    } else {
        if (n[old_parent].child1 == sibling)
            n[old_parent].child1 = parent;
        else
            n[old_parent].u.in.child2 = parent;
    }
    refit_up(t, old_parent);
}

int c2d_tree_insert(c2d_tree *t, c2d_aabb box, int item, unsigned category, unsigned mask)
{
    int leaf = alloc_node(t);
    c2d_tree_node *n = t->nodes;
    n[leaf].box = box;
    n[leaf].item = item;
    n[leaf].category = category;
    n[leaf].mask = mask;
    if (t->root == C2D_TREE_NULL) {
        t->root = leaf;
        return leaf;
    }
    attach_leaf(t, leaf, t->root);
    return leaf;
}

/* Detaches leaf from the tree (it keeps its node) and returns the node that took its parent's place
 * (its old sibling), or C2D_TREE_NULL when it was the root. */
static int detach_leaf(c2d_tree *t, int leaf)
{
    c2d_tree_node *n = t->nodes;
    if (leaf == t->root) {
        t->root = C2D_TREE_NULL;
        return C2D_TREE_NULL;
    }
    int parent = n[leaf].parent;
    int grand = n[parent].parent;
    int sibling = n[parent].child1 == leaf ? n[parent].u.in.child2 : n[parent].child1;
    if (grand != C2D_TREE_NULL) {
        if (n[grand].child1 == parent)
            n[grand].child1 = sibling;
        else
            n[grand].u.in.child2 = sibling;
        n[sibling].parent = grand;
        free_node(t, parent);
        refit_up(t, grand);
    } else {
        t->root = sibling;
        n[sibling].parent = C2D_TREE_NULL;
        free_node(t, parent);
    }
    n[leaf].parent = C2D_TREE_NULL;
    return sibling;
}

/* Re-placing a leaf that moved a little: the search for its new sibling starts from the lowest node
 * around its old place whose box holds the new box, not from the root. From the root the descent
 * would mostly follow the same chain of nodes that hold the box (going down one that holds it costs
 * nothing, so the search never leaves that chain while a single child holds it), so the tree ends up
 * about as good (measured: the same sum of perimeters and nodes per query within 1% on 40,000
 * drifting circles) for a third of the descent's cost. */
int c2d_tree_move(c2d_tree *t, int leaf, c2d_aabb box)
{
    int start = detach_leaf(t, leaf);
    c2d_tree_node *n = t->nodes;
    n[leaf].box = box;
    if (start == C2D_TREE_NULL) {
        t->root = leaf;
        return leaf;
    }
    while (n[start].parent != C2D_TREE_NULL && !c2d_aabb_contains(&n[start].box, &box))
        start = n[start].parent;
    /* The leaf keeps its node; attaching takes again the parent node that detaching freed. */
    attach_leaf(t, leaf, start);
    return leaf;
}

void c2d_tree_remove(c2d_tree *t, int leaf)
{
    detach_leaf(t, leaf);
    free_node(t, leaf);
}

/* ---- queries ---------------------------------------------------------------------------------- */

int c2d_tree_any(const c2d_tree *t, c2d_aabb box)
{
    if (t->root == C2D_TREE_NULL)
        return 0;
    const c2d_tree_node *n = t->nodes;
    if (!c2d_aabb_overlaps(&n[t->root].box, &box))
        return 0;
    int stack_buf[128];
    int top = 0;
    stack_buf[top++] = t->root;
    while (top > 0) {
        int i = stack_buf[--top];
        int c1 = n[i].child1, c2 = n[i].u.in.child2;
        if (c1 == C2D_TREE_NULL)
            return 1;
        if (top + 2 > 128)
            return 1; /* deeper than any balanced tree: say yes, and let the caller's full query answer */
        if (c2d_aabb_overlaps(&n[c2].box, &box))
            stack_buf[top++] = c2;
        if (c2d_aabb_overlaps(&n[c1].box, &box))
            stack_buf[top++] = c1;
    }
    return 0;
}

void c2d_tree_query(const c2d_tree *t, c2d_aabb box, c2d_ivec *out)
{
    if (t->root == C2D_TREE_NULL)
        return;
    const c2d_tree_node *n = t->nodes;
    if (!c2d_aabb_overlaps(&n[t->root].box, &box))
        return;
    int stack_buf[128];
    int *stack = stack_buf, cap = 128, top = 0;
    /* Every node on the stack overlaps the box: children are tested before they are pushed, since most
     * tests fail and a failed test is cheaper than a push and a pop. */
    stack[top++] = t->root;
    while (top > 0) {
        int i = stack[--top];
        int c1 = n[i].child1, c2 = n[i].u.in.child2;
        if (c1 == C2D_TREE_NULL) {
            c2d_ivec_push(out, i);
            continue;
        }
        if (top + 2 > cap) {
            /* A balanced tree of 2^30 nodes is far less than 128 deep; this is only for safety. */
            int *s = (int *)malloc((size_t)cap * 2 * sizeof *s);
            if (!s) {
                out->failed = 1;
                break;
            }
            memcpy(s, stack, (size_t)top * sizeof *s);
            if (stack != stack_buf)
                free(stack);
            stack = s;
            cap *= 2;
        }
        /* child2 first so child1 is visited first: a fixed, history-determined order. The walk is
         * bound by memory latency (a node is a cache line, in no particular place), so a child that
         * is kept has its own children fetched now, while the rest of the stack is worked on. */
        int o1 = c2d_aabb_overlaps(&n[c1].box, &box), o2 = c2d_aabb_overlaps(&n[c2].box, &box);
        if (o2) {
#if defined(__GNUC__)
            if (n[c2].child1 != C2D_TREE_NULL) {
                __builtin_prefetch(&n[n[c2].child1]);
                __builtin_prefetch(&n[n[c2].u.in.child2]);
            }
#endif
            stack[top++] = c2;
        }
        if (o1) {
#if defined(__GNUC__)
            if (n[c1].child1 != C2D_TREE_NULL) {
                __builtin_prefetch(&n[n[c1].child1]);
                __builtin_prefetch(&n[n[c1].u.in.child2]);
            }
#endif
            stack[top++] = c1;
        }
    }
    if (stack != stack_buf)
        free(stack);
}

void c2d_tree_self_pairs(const c2d_tree *t, c2d_ivec *out)
{
    if (t->root == C2D_TREE_NULL)
        return;
    const c2d_tree_node *n = t->nodes;
    /* Work items are node pairs (a, b); a == b means "all pairs inside a". */
    c2d_ivec stack;
    c2d_ivec_init(&stack);
    c2d_ivec_push(&stack, t->root);
    c2d_ivec_push(&stack, t->root);
    while (stack.count > 0 && !stack.failed) {
        int b = stack.data[--stack.count];
        int a = stack.data[--stack.count];
        const c2d_tree_node *na = &n[a], *nb = &n[b];
        if (a == b) {
            if (na->child1 == C2D_TREE_NULL)
                continue;
            c2d_ivec_push(&stack, na->child1);
            c2d_ivec_push(&stack, na->u.in.child2);
            c2d_ivec_push(&stack, na->u.in.child2);
            c2d_ivec_push(&stack, na->u.in.child2);
            c2d_ivec_push(&stack, na->child1);
            c2d_ivec_push(&stack, na->child1);
            continue;
        }
        if (!c2d_aabb_overlaps(&na->box, &nb->box))
            continue;
        int leaf_a = na->child1 == C2D_TREE_NULL, leaf_b = nb->child1 == C2D_TREE_NULL;
        if (leaf_a && leaf_b) {
            c2d_ivec_push(out, a);
            c2d_ivec_push(out, b);
            continue;
        }
        /* Split the bigger box: it is the one whose children are most likely to miss the other. */
        if (leaf_b || (!leaf_a && perimeter(&na->box) >= perimeter(&nb->box))) {
            /* Test the children against b here rather than pushing them: most tests fail, and a
             * failed test is cheaper than a push and a pop. */
            int c1 = na->child1, c2 = na->u.in.child2;
            if (c2d_aabb_overlaps(&n[c2].box, &nb->box)) {
                c2d_ivec_push(&stack, c2);
                c2d_ivec_push(&stack, b);
            }
            if (c2d_aabb_overlaps(&n[c1].box, &nb->box)) {
                c2d_ivec_push(&stack, c1);
                c2d_ivec_push(&stack, b);
            }
        } else {
            int c1 = nb->child1, c2 = nb->u.in.child2;
            if (c2d_aabb_overlaps(&n[c2].box, &na->box)) {
                c2d_ivec_push(&stack, a);
                c2d_ivec_push(&stack, c2);
            }
            if (c2d_aabb_overlaps(&n[c1].box, &na->box)) {
                c2d_ivec_push(&stack, a);
                c2d_ivec_push(&stack, c1);
            }
        }
    }
    if (stack.failed)
        out->failed = 1;
    c2d_ivec_free(&stack);
}

/* ---- whole-tree operations -------------------------------------------------------------------- */

int c2d_tree_height(const c2d_tree *t)
{
    return t->root == C2D_TREE_NULL ? -1 : t->nodes[t->root].height;
}

static int validate_node(const c2d_tree *t, int i, int parent, int *leaves, int *nodes)
{
    const c2d_tree_node *n = t->nodes;
    if (i < 0 || i >= t->capacity || n[i].height < 0 || n[i].parent != parent)
        return 0;
    (*nodes)++;
    if (n[i].child1 == C2D_TREE_NULL) {
        (*leaves)++;
        return n[i].height == 0;
    }
    int c1 = n[i].child1, c2 = n[i].u.in.child2;
    if (!validate_node(t, c1, i, leaves, nodes) || !validate_node(t, c2, i, leaves, nodes))
        return 0;
    int h1 = n[c1].height, h2 = n[c2].height;
    /* Rotations keep the tree roughly balanced, not strictly AVL: only the heights are exact. */
    if (n[i].height != 1 + max_int(h1, h2))
        return 0;
    c2d_aabb u = box_union(&n[c1].box, &n[c2].box);
    return memcmp(&u, &n[i].box, sizeof u) == 0;
}

int c2d_tree_validate(const c2d_tree *t)
{
    int leaves = 0, nodes = 0, free_count = 0;
    if (t->root != C2D_TREE_NULL && !validate_node(t, t->root, C2D_TREE_NULL, &leaves, &nodes))
        return 0;
    for (int i = t->free_list; i != C2D_TREE_NULL; i = t->nodes[i].parent) {
        if (i < 0 || i >= t->capacity || t->nodes[i].height != -1 || ++free_count > t->capacity)
            return 0;
    }
    return nodes == t->used && nodes + free_count == t->capacity && (leaves == 0 || nodes == 2 * leaves - 1);
}

/* Top-down build over leaves[lo, hi) by median split of centres on the longer axis of their spread;
 * returns the subtree's root. Uses an explicit recursion depth of log2(n): the split is balanced. */
static int build(c2d_tree *t, int *leaves, int lo, int hi)
{
    c2d_tree_node *n = t->nodes;
    if (hi - lo == 1)
        return leaves[lo];
    double x0 = INFINITY, y0 = INFINITY, x1 = -INFINITY, y1 = -INFINITY;
    for (int k = lo; k < hi; k++) {
        const c2d_aabb *b = &n[leaves[k]].box;
        double cx = b->min.x + b->max.x, cy = b->min.y + b->max.y;
        x0 = cx < x0 ? cx : x0;
        x1 = cx > x1 ? cx : x1;
        y0 = cy < y0 ? cy : y0;
        y1 = cy > y1 ? cy : y1;
    }
    int axis_y = (y1 - y0) > (x1 - x0);
    int mid = lo + (hi - lo) / 2;
    /* Quickselect the median centre (ties broken by node index so the result is deterministic). */
    int l = lo, r = hi - 1;
    while (l < r) {
        int p = leaves[l + (r - l) / 2];
        const c2d_aabb *pb = &n[p].box;
        double pv = axis_y ? pb->min.y + pb->max.y : pb->min.x + pb->max.x;
        int i = l, j = r;
        while (i <= j) {
            for (;;) {
                const c2d_aabb *b = &n[leaves[i]].box;
                double v = axis_y ? b->min.y + b->max.y : b->min.x + b->max.x;
                if (v < pv || (v == pv && leaves[i] < p))
                    i++;
                else
                    break;
            }
            for (;;) {
                const c2d_aabb *b = &n[leaves[j]].box;
                double v = axis_y ? b->min.y + b->max.y : b->min.x + b->max.x;
                if (v > pv || (v == pv && leaves[j] > p))
                    j--;
                else
                    break;
            }
            if (i <= j) {
                int tmp = leaves[i];
                leaves[i] = leaves[j];
                leaves[j] = tmp;
                i++;
                j--;
            }
        }
        if (mid <= j)
            r = j;
        else if (mid >= i)
            l = i;
        else
            break;
    }
    int c1 = build(t, leaves, lo, mid);
    int c2 = build(t, leaves, mid, hi);
    int p = alloc_node(t);
    n = t->nodes;
    n[p].child1 = c1;
    n[p].u.in.child2 = c2;
    n[c1].parent = p;
    n[c2].parent = p;
    n[p].box = box_union(&n[c1].box, &n[c2].box);
    n[p].height = 1 + max_int(n[c1].height, n[c2].height);
    return p;
}

/* Renumbers the nodes so that a walk down the tree finds what it fetches next near what it just
 * fetched: the tree is cut into treelets of up to C2D_TREELET_LEVELS levels, each stored as one run of
 * consecutive nodes in breadth-first order (its root first), the treelets in depth-first order. An
 * internal node whose children start treelets keeps their sizes in u.in.treelets (see tree.h), so a walk that
 * reaches it can fetch the next levels all at once instead of waiting on memory once per level. The
 * tree's later changes may leave stale sizes behind, which cost a wasted prefetch at worst. Free nodes
 * go after the live ones, in their old order, so allocation stays deterministic. Returns 0 (tree
 * unchanged) when memory runs out. */
static int renumber(c2d_tree *t)
{
    enum { LEVELS = C2D_TREELET_LEVELS, MAXQ = (1 << C2D_TREELET_LEVELS) - 1 };
    c2d_tree_node *n = t->nodes;
    int cap = t->capacity;
    int *map = (int *)malloc((size_t)cap * sizeof *map);
    int *todo = (int *)malloc((size_t)(t->used + 1) * sizeof *todo);
    if (!map || !todo) {
        free(map);
        free(todo);
        return 0;
    }
    for (int i = 0; i < cap; i++)
        map[i] = -1;
    int next = 0, ntodo = 0;
    todo[ntodo++] = t->root;
    while (ntodo > 0) {
        int q[MAXQ], qlevel[MAXQ], qn = 0;
        int r = todo[--ntodo];
        q[qn] = r;
        qlevel[qn++] = 0;
        /* Breadth first within the treelet: q is both the queue and the order. */
        for (int k = 0; k < qn; k++) {
            int x = q[k];
            map[x] = next++;
            if (n[x].child1 != C2D_TREE_NULL)
                n[x].u.in.treelets = 0;
            if (n[x].child1 != C2D_TREE_NULL && qlevel[k] + 1 < LEVELS) {
                q[qn] = n[x].child1;
                qlevel[qn++] = qlevel[k] + 1;
                q[qn] = n[x].u.in.child2;
                qlevel[qn++] = qlevel[k] + 1;
            }
        }
        /* The parent (in the treelet before, already numbered) learns this treelet's size. */
        int p = n[r].parent;
        if (p != C2D_TREE_NULL)
            n[p].u.in.treelets |= n[p].child1 == r ? qn : qn << 8;
        /* The children of the treelet's deepest internal nodes start treelets of their own, taken
         * in order, child1's first. */
        for (int k = qn - 1; k >= 0; k--) {
            int x = q[k];
            if (n[x].child1 != C2D_TREE_NULL && qlevel[k] + 1 == LEVELS) {
                todo[ntodo++] = n[x].u.in.child2;
                todo[ntodo++] = n[x].child1;
            }
        }
    }
    free(todo);
    for (int i = 0; i < cap; i++)
        if (map[i] < 0)
            map[i] = next++;
    /* Links to the new numbers, then the nodes to their new places, one cycle of the permutation at
     * a time (map[i] < 0 marks a node already in place). */
    for (int i = 0; i < cap; i++) {
        if (n[i].height < 0)
            continue;
        if (n[i].parent != C2D_TREE_NULL)
            n[i].parent = map[n[i].parent];
        if (n[i].child1 != C2D_TREE_NULL) {
            n[i].child1 = map[n[i].child1];
            n[i].u.in.child2 = map[n[i].u.in.child2];
        }
    }
    t->root = map[t->root];
    for (int i = 0; i < cap; i++) {
        if (map[i] < 0)
            continue;
        c2d_tree_node carry = n[i];
        int j = map[i];
        map[i] = -1;
        while (j != i) {
            c2d_tree_node tmp = n[j];
            n[j] = carry;
            carry = tmp;
            int nj = map[j];
            map[j] = -1;
            j = nj;
        }
        n[i] = carry;
    }
    free(map);
    /* The free list, lowest index first. */
    t->free_list = C2D_TREE_NULL;
    link_free(t, t->used, cap);
    return 1;
}

int c2d_tree_rebuild(c2d_tree *t)
{
    if (t->root == C2D_TREE_NULL)
        return 1;
    int count = (t->used + 1) / 2;
    int *leaves = (int *)malloc((size_t)count * sizeof *leaves);
    if (!leaves)
        return 0;
    int k = 0;
    /* Leaves in index order (not tree order), so the rebuilt tree depends only on the leaves. */
    for (int i = 0; i < t->capacity; i++) {
        c2d_tree_node *nd = &t->nodes[i];
        if (nd->height == 0 && nd->child1 == C2D_TREE_NULL)
            leaves[k++] = i;
    }
    for (int i = 0; i < t->capacity; i++)
        if (t->nodes[i].height > 0)
            free_node(t, i);
    /* Free internal nodes were pushed highest-last; rebuild the free list in index order so
     * allocation stays deterministic and compact. */
    t->free_list = C2D_TREE_NULL;
    for (int i = t->capacity - 1; i >= 0; i--)
        if (t->nodes[i].height == -1) {
            t->nodes[i].parent = t->free_list;
            t->free_list = i;
        }
    t->root = build(t, leaves, 0, k);
    t->nodes[t->root].parent = C2D_TREE_NULL;
    free(leaves);
    /* Out of memory here leaves a sound tree in the old numbering: only slower to walk. */
    (void)renumber(t);
    return 1;
}
