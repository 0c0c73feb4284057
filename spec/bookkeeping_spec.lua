-- spec/bookkeeping_spec.lua - what a game no longer keeps by hand (issue 25, item 4): rectangles made
-- from their centre (collide2d.box) beside the corner form (collide2d.rectangle). Bad input raises the
-- named error and changes nothing.
local collide2d = require 'collide2d'
local expect = require 'spec.support.expect'

describe('collide2d.box(cx, cy, w, h [, angle])', function()
  it('is the rectangle given by its centre, as collide2d.rectangle is by its corner', function()
    local b, r = collide2d.box(5, 6, 4, 2), collide2d.rectangle(3, 5, 4, 2)
    assert.are.equal('rectangle', b:type())
    assert.are.same({ r:position() }, { b:position() })
    assert.are.same(r:vertices(), b:vertices())
    local turned = collide2d.box(5, 6, 4, 2, 0.3)
    local tx, ty = turned:position()
    assert.are.same({ 5, 6, 0.3 }, { tx, ty, turned:angle() })
    assert.are.same(collide2d.rectangle(3, 5, 4, 2, 0.3):vertices(), turned:vertices())
    assert.are.same(b:collide(collide2d.circle(7, 6, 1)), r:collide(collide2d.circle(7, 6, 1)))
  end)

  it('refuses what collide2d.rectangle refuses, naming the argument', function()
    expect.raises("bad argument #3 to 'box' (size or radius must be positive)", function() collide2d.box(0, 0, 0, 1) end)
    expect.raises("bad argument #4 to 'box' (size or radius must be positive)", function() collide2d.box(0, 0, 1, -1) end)
    expect.raises("bad argument #1 to 'box' (number is NaN or infinite)", function() collide2d.box(0 / 0, 0, 1, 1) end)
    expect.raises("bad argument #5 to 'box' (number or count out of range)", function() collide2d.box(0, 0, 1, 1, 1e16) end)
    expect.raises("bad argument #2 to 'box' (number expected, got nil)", function() collide2d.box(0, nil, 1, 1) end)
  end)
end)
