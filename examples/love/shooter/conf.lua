-- examples/love/shooter/conf.lua - the shooter's window: 800x600, no audio (Xvfb machines and headless
-- runs have none), and none of the modules the game does not use.
function love.conf(t)
  t.identity = 'collide2d-shooter'
  t.version = '11.4'
  t.window.title = 'collide2d - shooter'
  t.window.width = 800
  t.window.height = 600
  t.window.vsync = 1
  t.modules.audio = false
  t.modules.sound = false
  t.modules.joystick = false
  t.modules.physics = false
  t.modules.video = false
  t.modules.touch = false
end
