-- campaignctl lsp for the YAML buffers of Neovim 0.7 and later (docs/editors.md).
-- Put this in your init.lua, or as ~/.config/nvim/plugin/campaignctl.lua.
-- In a clone: cmd = { "node", "/path/to/campaignctl/dist/cli/main.js", "lsp", "--stdio" }.
local cmd = { "campaignctl", "lsp", "--stdio" }
-- The workspace folder: the nearest directory above the file that holds one of these.
local markers = { "campaignctl.policy.yaml", ".git" }

if vim.lsp.config and vim.lsp.enable then -- Neovim 0.11 and later
  vim.lsp.config("campaignctl", { cmd = cmd, filetypes = { "yaml" }, root_markers = markers })
  vim.lsp.enable("campaignctl")
else
  local function root_of(buf)
    if vim.fs and vim.fs.root then -- 0.10
      return vim.fs.root(buf, markers)
    end
    local dir = vim.fn.fnamemodify(vim.api.nvim_buf_get_name(buf), ":p:h")
    for _, marker in ipairs(markers) do
      local found = vim.fn.findfile(marker, dir .. ";")
      if found == "" then
        found = vim.fn.finddir(marker, dir .. ";")
      end
      if found ~= "" then
        return vim.fn.fnamemodify(vim.fn.fnamemodify(found, ":p"):gsub("/$", ""), ":h")
      end
    end
  end
  local clients = {} -- Neovim 0.7: one client per workspace folder
  vim.api.nvim_create_autocmd("FileType", {
    pattern = "yaml",
    callback = function(args)
      local root = root_of(args.buf)
      if vim.lsp.start then -- 0.8 to 0.10
        vim.lsp.start({ name = "campaignctl", cmd = cmd, root_dir = root }, { bufnr = args.buf })
      else -- 0.7
        local key = root or ""
        if not (clients[key] and vim.lsp.get_client_by_id(clients[key])) then
          clients[key] = vim.lsp.start_client({ name = "campaignctl", cmd = cmd, root_dir = root })
        end
        vim.lsp.buf_attach_client(args.buf, clients[key])
      end
    end,
  })
end
