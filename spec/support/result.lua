-- spec/support/result.lua - busted output handler for `make test`: busted's plainTerminal output,
-- then one closing line "RESULT passed=N failed=M" that spec/run.sh reads. Errors (a spec file that
-- fails to load, an error outside an assertion) count as failures, so a crash can never pass.
-- Use: busted -o spec/support/result.lua (the .busted file at the top sets it as the default).
return function(options)
  local busted = require 'busted'
  local handler = require 'busted.outputHandlers.plainTerminal'(options)

  busted.subscribe({ 'suite', 'end' }, function()
    io.write(string.format('RESULT passed=%d failed=%d\n', handler.successesCount,
      handler.failuresCount + handler.errorsCount))
    io.flush()
    return nil, true
  end)

  return handler
end
