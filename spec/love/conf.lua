-- spec/love/conf.lua - configuration of the LÖVE check game (see main.lua): a small fixed window, a
-- save directory of its own (where the screenshot goes), and no audio, which Xvfb machines lack.
function love.conf(t)
  t.identity = 'collide2d-check'
  t.version = '11.4'
  t.window.title = 'collide2d LÖVE check'
  t.window.width = 320
  t.window.height = 240
  t.window.vsync = 0
  t.modules.audio = false
  t.modules.sound = false
  t.modules.joystick = false
  t.modules.physics = false
  t.modules.video = false
end
