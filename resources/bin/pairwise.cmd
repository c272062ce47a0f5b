@echo off
rem The pairwise CLI of an installed Pairwise: the app's own Electron run as plain Node
rem (ELECTRON_RUN_AS_NODE) on the bundled CLI. It sits in resources\bin of the install folder;
rem put that folder on PATH to call it as pairwise. See docs/releasing.md.
setlocal
set ELECTRON_RUN_AS_NODE=1
"%~dp0..\..\Pairwise.exe" "%~dp0..\app.asar\out\main\cli.js" %*
exit /b %ERRORLEVEL%
