-- spec/loader/conf.lua - the loader check game (main.lua): a save directory of its own, no window
-- (nothing is drawn), no audio, which Xvfb machines lack.
function love.conf(t)
  t.identity = 'collide2d-loader-check'
  t.version = '11.4'
  t.window = false
  t.modules.audio = false
  t.modules.sound = false
  t.modules.joystick = false
  t.modules.physics = false
  t.modules.video = false
  t.modules.graphics = false
  t.modules.window = false
end
